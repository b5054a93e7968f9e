"""The search space of one platform (schedules/space/<platform>.json): each
tunable number's legal values, the constraints between them, and the start
point (schedules/params/<platform>.json, the numbers in force)."""
import json

# A number is named "<scope>.<key>": a generator's GeneratorParam ("reduce.accumulators"),
# the same for one kernel of it ("hdml_reduce_float32_inner_log_sum_exp.accumulators", the
# kernel without its platform suffix) or a run-time threshold ("dispatch.reduce_row_lanes_max_row").
GENERATORS = ("arg_reduce", "normalize_indices", "reduce", "gather", "copy", "copy_parts", "split_parts", "scan")

DEVICES = ("cpu", "cuda", "d3d12")
# The families a threshold's choice serves, by its name's prefix: REDUCE's
# variant list picks the arg_reduce kernels too.
THRESHOLD_FAMILIES = {"reduce": ("reduce", "arg_reduce"), "scan": ("scan",), "gather": ("gather",),
                      "copy": ("copy", "copy_parts", "split_parts")}


def kernel_base(name, platform):
    """hdml_reduce_float32_inner_sum_x86 -> (hdml_reduce_float32_inner_sum, reduce)."""
    base = name[:-len("_" + platform)] if name.endswith("_" + platform) else name
    for g in sorted(GENERATORS, key=len, reverse=True):
        if base.startswith("hdml_%s_" % g):
            return base, g
    return base, None


def kernel_scope(name):
    """A kernel-scoped number's (kernel, generator), or None for a generator's or a threshold's."""
    scope = name.split(".", 1)[0]
    base, generator = kernel_base(scope, "")
    return (base, generator) if generator else None


def families_of(name):
    """The families whose cases a number changes: its generator (or its
    kernel's), or for a threshold the families its prefix serves."""
    scope, key = name.split(".", 1)
    if kernel_scope(name):
        return (kernel_scope(name)[1],)
    if scope != "dispatch":
        return (scope,)
    return THRESHOLD_FAMILIES.get(key.split("_", 1)[0], ())


def generator_name(name):
    """The generator-scoped name of a kernel-scoped number (itself otherwise): its legal values."""
    kernel = kernel_scope(name)
    return "%s.%s" % (kernel[1], name.split(".", 1)[1]) if kernel else name


class SpaceError(Exception):
    pass


def _divides(a, b):
    return a != 0 and b % a == 0


# Constraint kinds: each takes the param's value and the constraint's operand
# (a number, or another param's value when the operand names one).
_CHECKS = {
    "multiple_of": lambda v, x: v % x == 0,
    "divides": _divides,
    "below": lambda v, x: v < x,
    "at_most": lambda v, x: v <= x,
}


class Space:
    def __init__(self, space_json, params_json, origin="space"):
        self.origin = origin
        self.platform = space_json.get("platform")
        self.device = space_json.get("device")
        if self.device not in DEVICES:
            raise SpaceError("%s: \"device\" must be one of %s (the device hdml-tune-bench times on)"
                             % (origin, ", ".join(DEVICES)))
        self.corpus = space_json.get("corpus")
        if not isinstance(self.corpus, str) or "/" in self.corpus:
            raise SpaceError("%s: \"corpus\" must name a file beside it (the cases measured)" % origin)
        if not isinstance(space_json.get("params"), dict):
            raise SpaceError("%s: no \"params\" object" % origin)
        self.values = {}
        for scope, entries in space_json["params"].items():
            for key, values in entries.items():
                name = "%s.%s" % (scope, key)
                if (not isinstance(values, list) or not values
                        or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)):
                    raise SpaceError("%s: %s must list integers" % (origin, name))
                if sorted(set(values)) != values:
                    raise SpaceError("%s: %s's values must be increasing and distinct" % (origin, name))
                if scope == "dispatch" and not families_of(name):
                    raise SpaceError("%s: %s serves no family: a threshold's name starts with one of %s"
                                     % (origin, name, ", ".join(sorted(THRESHOLD_FAMILIES))))
                self.values[name] = values
        self.constraints = space_json.get("constraints", [])
        for c in self.constraints:
            kinds = [k for k in _CHECKS if k in c]
            if c.get("param") not in self.values or len(kinds) != 1:
                raise SpaceError("%s: constraint %s needs a \"param\" of the space and one of %s"
                                 % (origin, json.dumps(c), ", ".join(sorted(_CHECKS))))
            operand = c[kinds[0]]
            if isinstance(operand, str) and operand not in self.values:
                raise SpaceError("%s: constraint %s names %s, which is not in the space" % (origin, json.dumps(c), operand))
        self.defaults = {}
        for name in self.values:
            scope, key = name.split(".", 1)
            value = params_json.get(scope, {}).get(key)
            if value is None:
                raise SpaceError("%s: %s has no value in the platform's params (the start point)" % (origin, name))
            if value not in self.values[name]:
                raise SpaceError("%s: %s's current value %s is not among its values %s"
                                 % (origin, name, value, self.values[name]))
            self.defaults[name] = value
        violated = self.violations(self.defaults)
        if violated:
            raise SpaceError("%s: the current numbers break %s" % (origin, "; ".join(violated)))

    def families(self):
        return sorted({name.split(".", 1)[0] for name in self.values})

    def names(self, families=None):
        return [n for n in self.values if families is None or any(f in families for f in families_of(n))]

    def violations(self, assignment):
        """The constraints `assignment` (name -> value, the defaults filling the rest) breaks, as text."""
        full = dict(self.defaults)
        full.update(assignment)
        out = []
        for c in self.constraints:
            kind = next(k for k in _CHECKS if k in c)
            operand = c[kind]
            x = full[operand] if isinstance(operand, str) else operand
            if not _CHECKS[kind](full[c["param"]], x):
                out.append("%s %s %s (%s = %s)%s" % (c["param"], kind, operand, c["param"], full[c["param"]],
                                                    ": " + c["why"] if "why" in c else ""))
        return out

    def key(self, assignment):
        """The canonical form of a candidate: the values that differ from the defaults, sorted."""
        return tuple(sorted((n, v) for n, v in assignment.items() if self.defaults.get(n) != v))

    def neighbours(self, assignment, names):
        """Coordinate-descent moves from `assignment`: each of `names` one value up or down,
        legal under the constraints, each distinct candidate once."""
        seen, out = set(), []
        for name in names:
            values = self.values[name]
            at = values.index(assignment.get(name, self.defaults[name]))
            for step in (-1, 1):
                if 0 <= at + step < len(values):
                    moved = dict(assignment)
                    moved[name] = values[at + step]
                    k = self.key(moved)
                    if k not in seen and not self.violations(moved):
                        seen.add(k)
                        out.append(dict(k))
        return out


def load(space_path, params_path):
    with open(space_path) as f:
        space_json = json.load(f)
    with open(params_path) as f:
        params_json = json.load(f)
    return Space(space_json, params_json, origin=space_path)
