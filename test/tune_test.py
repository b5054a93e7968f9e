#!/usr/bin/env python3
"""hdml-tune's pieces (tools/tune/hdmltune): the search spaces, the log, apply,
and a tuned profile accepted by the build (a configure with -DHDML_TUNED).
With a build directory, also an end-to-end smoke tune of the copy family
(hdml-tune local, one-minute budget) whose profile the build then accepts.
Run by ctest as tune_test: python3 test/tune_test.py <source dir> [<build dir>]."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.realpath(sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
BUILD = os.path.realpath(sys.argv.pop(1)) if len(sys.argv) > 1 else None  # a built hdml: the smoke tune
sys.path.insert(0, os.path.join(SOURCE, "tools", "tune"))

from hdmltune import apply as tune_apply  # noqa: E402
from hdmltune import log as tune_log  # noqa: E402
from hdmltune import measure as tune_measure  # noqa: E402
from hdmltune import plan as tune_plan  # noqa: E402
from hdmltune import space as tune_space  # noqa: E402

PARAMS = {"reduce": {"a": 2, "b": 64}, "dispatch": {"reduce_x": 100}}


def space(params=None, constraints=None, values=None, **fields):
    spec = {"platform": "x86", "device": "cpu", "corpus": "corpus-cpu.json",
            "params": values or {"reduce": {"a": [1, 2, 4], "b": [32, 64, 128]},
                                 "dispatch": {"reduce_x": [50, 100, 200]}},
            "constraints": constraints or []}
    spec.update(fields)
    return tune_space.Space(spec, params or PARAMS, origin="test")


def record(candidate, case, seconds, family="reduce", **fields):
    r = {"platform": "x86", "machine": "test", "family": family, "candidate": candidate, "case": case,
         "bytes": 1 << 20, "seconds": seconds}
    r.update(fields)
    return r


class SpaceTest(unittest.TestCase):
    def test_every_platform_space_holds_its_current_numbers(self):
        for platform in ("x86", "arm", "cuda", "d3d12"):
            s = tune_space.load(os.path.join(SOURCE, "schedules", "space", platform + ".json"),
                                os.path.join(SOURCE, "schedules", "params", platform + ".json"))
            self.assertEqual(s.platform, platform)
            self.assertTrue(s.values)
            self.assertEqual(s.violations({}), [])
            with open(os.path.join(SOURCE, "schedules", "space", s.corpus)) as f:
                cases = json.load(f)["cases"]
            self.assertTrue(cases)
            self.assertEqual(len({c["case"] for c in cases}), len(cases))

    def test_every_checked_in_profile_fits_its_platform_space(self):
        folder = os.path.join(SOURCE, "schedules", "tuned")
        for name in sorted(n for n in os.listdir(folder) if n.endswith(".json")):
            with open(os.path.join(folder, name)) as f:
                profile = json.load(f)
            self.assertTrue(profile.get("machine") and profile.get("date"), name)
            s = tune_space.load(os.path.join(SOURCE, "schedules", "space", profile["platform"] + ".json"),
                                os.path.join(SOURCE, "schedules", "params", profile["platform"] + ".json"))
            numbers = {"%s.%s" % (scope, key): value for scope, entries in profile.items()
                       if scope not in tune_apply.PROFILE_METADATA for key, value in entries.items()}
            for n, v in numbers.items():
                self.assertIn(v, s.values.get(tune_space.generator_name(n), []), "%s: %s" % (name, n))
            self.assertEqual(s.violations(numbers), [], name)

    def test_rejects_an_unknown_device_corpus_or_threshold_family(self):
        with self.assertRaisesRegex(tune_space.SpaceError, "\"device\" must be one of cpu, cuda, d3d12"):
            space(device="tpu")
        with self.assertRaisesRegex(tune_space.SpaceError, "\"corpus\" must name a file beside it"):
            space(corpus="../x.json")
        with self.assertRaisesRegex(tune_space.SpaceError, "dispatch.sort_x serves no family"):
            space(values={"reduce": {"a": [2], "b": [64]}, "dispatch": {"sort_x": [1]}},
                  params={"reduce": {"a": 2, "b": 64}, "dispatch": {"sort_x": 1}})

    def test_a_threshold_serves_the_families_of_its_prefix(self):
        self.assertEqual(tune_space.families_of("dispatch.reduce_row_lanes_max_row"), ("reduce", "arg_reduce"))
        self.assertEqual(tune_space.families_of("dispatch.scan_staged_min_line"), ("scan",))
        self.assertEqual(tune_space.families_of("arg_reduce.gpu_unroll"), ("arg_reduce",))
        self.assertEqual(space().names(["arg_reduce"]), ["dispatch.reduce_x"])

    def test_rejects_a_current_number_outside_its_values(self):
        with self.assertRaisesRegex(tune_space.SpaceError, "current value 3 is not among"):
            space(params={"reduce": {"a": 3, "b": 64}, "dispatch": {"reduce_x": 100}})

    def test_rejects_a_param_without_a_start_point(self):
        with self.assertRaisesRegex(tune_space.SpaceError, "reduce.b has no value"):
            space(params={"reduce": {"a": 2}, "dispatch": {"reduce_x": 100}})

    def test_rejects_unsorted_values_and_bad_constraints(self):
        with self.assertRaisesRegex(tune_space.SpaceError, "increasing and distinct"):
            space(values={"reduce": {"a": [4, 2], "b": [64]}, "dispatch": {"reduce_x": [100]}})
        with self.assertRaisesRegex(tune_space.SpaceError, "is not in the space"):
            space(constraints=[{"param": "reduce.a", "divides": "reduce.c"}])
        with self.assertRaisesRegex(tune_space.SpaceError, "needs a \"param\""):
            space(constraints=[{"param": "reduce.a", "sideways": 3}])
        with self.assertRaisesRegex(tune_space.SpaceError, "current numbers break"):
            space(constraints=[{"param": "reduce.b", "below": "reduce.a", "why": "test"}])

    def test_neighbours_are_legal_and_distinct(self):
        s = space(constraints=[{"param": "reduce.a", "divides": "reduce.b"},
                               {"param": "reduce.b", "at_most": 64}])
        moves = s.neighbours({}, s.names(["reduce"]))
        # a: 1 and 4 (both divide 64); b: 32 (128 breaks at_most 64); dispatch.reduce_x: 50 and 200.
        self.assertEqual(sorted(tuple(sorted(m.items())) for m in moves),
                         sorted([(("reduce.a", 1),), (("reduce.a", 4),), (("reduce.b", 32),),
                                 (("dispatch.reduce_x", 50),), (("dispatch.reduce_x", 200),)]))
        # From a = 4: back to a = 2 is the defaults ({}), listed once.
        back = s.neighbours({"reduce.a": 4}, ["reduce.a", "reduce.a"])
        self.assertEqual(back, [{}])
        self.assertEqual(s.key({"reduce.a": 2, "reduce.b": 32}), (("reduce.b", 32),))


class LogTest(unittest.TestCase):
    def test_a_torn_last_line_is_skipped_and_a_rerun_skips_what_is_measured(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log.jsonl")
            tune_log.append(path, record({}, "c1", [1.0, 1.2]))
            tune_log.append(path, record({"reduce.a": 4}, "c1", [0.8]))
            with open(path, "a") as f:
                f.write('{"platform": "x86", "machine": "test", "fam')  # interrupted mid-write
            records = tune_log.read(path)
            self.assertEqual(len(records), 2)
            self.assertEqual({(tune_log.candidate_key(r["candidate"]), r["case"]) for r in records},
                             {((), "c1"), ((("reduce.a", 4),), "c1")})
            tune_log.append(path, record({}, "c1", [1.4]))  # a later pass of the same pair is pooled
            med = tune_log.medians(tune_log.read(path))
            self.assertEqual(med[((), "c1")][2:], (1.0, 1.4))
            self.assertAlmostEqual(med[((), "c1")][0], 1.2)

    def test_a_rerun_resumes_only_what_this_boot_measured(self):
        cands = [{"id": "d", "candidate": {}}, {"id": "m", "candidate": {"reduce.a": 4}}]
        log = [dict(record({}, "c1", [1.0]), boot="A", **{"pass": 0}),
               dict(record({"reduce.a": 4}, "c1", [1.0]), boot="B", **{"pass": 0})]
        self.assertEqual([(p, c["id"]) for p, c in tune_measure.todo(cands, log, 2, "A")],
                         [(0, "m"), (1, "m"), (1, "d")])
        self.assertEqual(len(tune_measure.todo(cands, log, 2, "C")), 4)  # another machine measures afresh

    def test_a_confirmation_round_measures_afresh_what_the_search_measured(self):
        cands = [{"id": "d", "candidate": {}}, {"id": "m", "candidate": {"reduce.a": 4}}]
        log = [dict(record({}, "c1", [1.0]), boot="A", **{"pass": 0}),
               dict(record({"reduce.a": 4}, "c1", [1.0]), boot="A", **{"pass": 0}),
               dict(record({}, "c1", [1.0]), boot="A", stage="confirm", **{"pass": 0})]
        self.assertEqual([(p, c["id"]) for p, c in tune_measure.todo(cands, log, 2, "A", "confirm")],
                         [(0, "m"), (1, "m"), (1, "d")])
        self.assertEqual([(p, c["id"]) for p, c in tune_measure.todo(cands, log, 2, "A")],
                         [(1, "m"), (1, "d")])
        # A second confirmation round measures the defaults again beside its own candidates.
        self.assertEqual(len(tune_measure.todo(cands, log, 2, "A", "confirm", "confirm-2")), 4)

    def test_a_missing_log_is_empty(self):
        self.assertEqual(tune_log.read("/nonexistent/hdml-tune.log"), [])


class ApplyTest(unittest.TestCase):
    def log(self):
        return [record({}, "c1", [1.0]), record({}, "c2", [2.0]),
                record({"reduce.a": 4}, "c1", [0.8]), record({"reduce.a": 4}, "c2", [1.8]),
                # faster in geomean, but one case 10% slower: not taken
                record({"reduce.b": 128}, "c1", [0.5]), record({"reduce.b": 128}, "c2", [2.2]),
                # 5% slower in one case's median, but within the defaults' repeats: noise, taken if best
                record({"reduce.b": 32}, "c1", [0.9]), record({"reduce.b": 32}, "c2", [2.1, 1.9, 2.1]),
                # within noise: not taken
                record({"reduce.a": 1}, "c1", [0.995]), record({"reduce.a": 1}, "c2", [1.99])]

    def test_takes_the_best_candidate_that_loses_no_case(self):
        chosen = tune_apply.choose(self.log())
        self.assertEqual(chosen["reduce"][0], {"reduce.a": 4})
        profile, table = tune_apply.profile(self.log(), space(), "t")
        self.assertEqual(profile["reduce"], {"a": 4})
        self.assertEqual((profile["platform"], profile["machine"]), ("x86", "test"))
        self.assertIn("| reduce | c1 | 1000 | 800 | 1.25x | 1000–1000 / 800–800 |", table)

    def test_a_candidate_is_judged_on_the_families_it_changes(self):
        log = self.log() + [record({}, "a1", [1.0], "arg_reduce"),
                            # reduce.a = 4 leaves arg_reduce alone: its slower a1 is noise, not a loss
                            record({"reduce.a": 4}, "a1", [1.5], "arg_reduce"),
                            # a REDUCE threshold serves arg_reduce too: a1's loss rules it out ...
                            record({"dispatch.reduce_x": 50}, "c1", [0.5]), record({"dispatch.reduce_x": 50}, "c2", [1.0]),
                            record({"dispatch.reduce_x": 50}, "a1", [1.5], "arg_reduce"),
                            # ... and a gain on both families makes it the best of "reduce+arg_reduce"
                            record({"dispatch.reduce_x": 200}, "c1", [0.9]), record({"dispatch.reduce_x": 200}, "c2", [1.8]),
                            record({"dispatch.reduce_x": 200}, "a1", [0.9], "arg_reduce")]
        chosen = tune_apply.choose(log)
        self.assertEqual(sorted(chosen), ["arg_reduce+reduce", "reduce"])
        self.assertEqual(chosen["reduce"][0], {"reduce.a": 4})
        self.assertEqual(sorted(chosen["reduce"][2]), ["c1", "c2"])
        self.assertEqual(chosen["arg_reduce+reduce"][0], {"dispatch.reduce_x": 200})
        self.assertEqual(sorted(chosen["arg_reduce+reduce"][2]), ["a1", "c1", "c2"])
        profile, _ = tune_apply.profile(log, space(), "t")
        self.assertEqual((profile["reduce"], profile["dispatch"]), ({"a": 4}, {"reduce_x": 200}))

    def test_only_the_latest_boot_is_judged(self):
        # An earlier boot (another node) had the defaults slow: against it reduce.a = 1 would win.
        old = [dict(record({}, "c1", [2.0]), boot="A"), dict(record({"reduce.a": 1}, "c1", [1.0]), boot="A")]
        new = [dict(r, boot="B") for r in self.log()]
        self.assertEqual(tune_apply.choose(old)["reduce"][0], {"reduce.a": 1})
        self.assertEqual(tune_apply.choose(old + new)["reduce"][0], {"reduce.a": 4})

    def test_merging_keeps_the_larger_gain_where_two_choices_disagree(self):
        chosen = {"reduce": ({"reduce.a": 4}, 1.1, {}), "arg_reduce+reduce": ({"reduce.a": 1, "dispatch.reduce_x": 50}, 1.3, {})}
        self.assertEqual(tune_apply.merged(chosen), {"reduce.a": 1, "dispatch.reduce_x": 50})

    def test_a_confirmation_round_is_judged_alone(self):
        search = [dict(r, boot="A") for r in self.log()]
        # Measured again alone against the defaults, reduce.a = 4 no longer wins: nothing is taken ...
        confirm = [dict(record({}, "c1", [1.0]), boot="A", stage="confirm"),
                   dict(record({}, "c2", [2.0]), boot="A", stage="confirm"),
                   dict(record({"reduce.a": 4}, "c1", [1.0]), boot="A", stage="confirm"),
                   dict(record({"reduce.a": 4}, "c2", [1.99]), boot="A", stage="confirm")]
        self.assertEqual(tune_apply.choose(search)["reduce"][0], {"reduce.a": 4})
        self.assertEqual(tune_apply.choose(search + confirm), {})
        # ... while the search's choice, the next round's start, is unchanged by it.
        self.assertEqual(tune_apply.choose(tune_apply.searched(search + confirm))["reduce"][0], {"reduce.a": 4})
        table = tune_apply.confirmation_table(search + confirm)
        self.assertIn("| reduce.a 4 | c2 | 2000 | 1990 | 1.01x |", table)
        self.assertIn("| reduce.a 4 | **geomean** | | | **1.003x** | below the 2% bar |", table)
        self.assertEqual(tune_apply.confirmation_table(search), "")
        # A later confirmation round on the same boot is judged alone.
        again = [dict(r, round="r2") for r in confirm[:2]] + \
            [dict(r, candidate={"reduce.b": 128}, round="r2") for r in confirm[2:]]
        self.assertEqual([v[0] for v in tune_apply.verdicts(search + confirm + again)], [{"reduce.b": 128}])
        # A later boot's search is judged on its own again.
        self.assertEqual(tune_apply.choose(search + confirm + [dict(r, boot="B") for r in self.log()])["reduce"][0],
                         {"reduce.a": 4})

    def kernel_log(self):
        """A confirmation round: reduce.a = 4 gains 20% on c1 (kernel k1) and loses 4% on c2 (k2), c3 (k1 and k3)."""
        k = {"c1": "hdml_reduce_k1_x86", "c2": "hdml_reduce_k2_x86", "c3": "hdml_reduce_k1_x86 hdml_reduce_k3_x86"}
        log = []
        for cand, times in (({}, (1.2, 1.0, 1.0)), ({"reduce.a": 4}, (1.0, 1.04, 0.9)),
                            ({"hdml_reduce_k1.a": 4}, (1.0, 1.0, 0.95)), ({"hdml_reduce_k2.a": 4}, (1.2, 0.99, 1.0))):
            for case, t in zip(("c1", "c2", "c3"), times):
                log.append(record(cand, case, [t], stage="confirm", boot="A", kernels=k[case]))
        return log

    def test_a_rejected_move_is_split_into_the_kernels_where_it_gained(self):
        log = [r for r in self.kernel_log() if not any(n.startswith("hdml_") for n in r["candidate"])]
        # Every case of k1 (c1 1.2x, c3 1.11x) and of k3 (c3) gained; k2's (c2, 0.96x) did not.
        self.assertEqual(tune_apply.kernel_moves(log), [{"hdml_reduce_k1.a": 4}, {"hdml_reduce_k3.a": 4}])
        self.assertEqual(tune_apply.kernel_moves([dict(r, stage="search") for r in log]), [])  # a search: too noisy
        self.assertEqual(tune_plan.confirmation(log), [{}, {"hdml_reduce_k1.a": 4}, {"hdml_reduce_k3.a": 4}])

    def test_a_kernel_move_is_judged_on_its_kernel_s_cases(self):
        chosen = tune_apply.choose(self.kernel_log())
        # k1's move: c1 1.2x and c3 1.05x (c2 does not call k1); k2's: c2 only, 1.01x: below the 5% bar.
        self.assertEqual(list(chosen), ["reduce@hdml_reduce_k1"])
        self.assertEqual(sorted(chosen["reduce@hdml_reduce_k1"][2]), ["c1", "c3"])
        profile, _ = tune_apply.profile(self.kernel_log(), space(), "t")
        self.assertEqual(profile["hdml_reduce_k1"], {"a": 4})
        self.assertNotIn("reduce", profile)
        self.assertIn("| hdml_reduce_k2.a 4 | **geomean** | | | **1.010x** | below the 5% bar |",
                      tune_apply.confirmation_table(self.kernel_log()))

    def test_nothing_better_writes_only_where_it_was_measured(self):
        profile, _ = tune_apply.profile([record({}, "c1", [1.0]), record({"reduce.a": 4}, "c1", [1.5])], space(), "t")
        self.assertEqual(set(profile), {"platform", "machine", "date"})


class PlanTest(unittest.TestCase):
    def test_remote_kernels_come_from_the_defaults_measurement(self):
        with tempfile.TemporaryDirectory() as d:
            corpus = os.path.join(d, "corpus.json")
            with open(corpus, "w") as f:
                json.dump({"cases": [{"case": "c1", "family": "reduce"}, {"case": "s1", "family": "scan"}]}, f)
            rec = dict(record({}, "c1", [1.0]), kernels="hdml_reduce_float32_inner_sum_cuda hdml_copy_uint32_cuda")
            self.assertIsNone(tune_plan.logged_kernels([], corpus, ["reduce"], "cuda"))
            self.assertIsNone(tune_plan.logged_kernels([rec], corpus, ["reduce", "scan"], "cuda"))  # s1 unmeasured
            moved = dict(rec, candidate={"reduce.a": 4}, kernels="hdml_reduce_float32_inner_sum_lanes_cuda")
            self.assertEqual(tune_plan.logged_kernels([moved, rec], corpus, ["reduce"], "cuda"),
                             {"c1": [("hdml_reduce_float32_inner_sum", "reduce"), ("hdml_copy_uint32", "copy")]})

    def test_a_confirmation_round_holds_the_defaults_each_choice_and_their_merge(self):
        log = ApplyTest.log(None) + [record({}, "a1", [1.0], "arg_reduce"),
                                     record({"arg_reduce.a": 2}, "a1", [0.5], "arg_reduce")]
        self.assertEqual(tune_plan.confirmation(log), [{}, {"arg_reduce.a": 2}, {"reduce.a": 4},
                                                       {"arg_reduce.a": 2, "reduce.a": 4}])
        self.assertEqual(tune_plan.confirmation(log[:4]), [{}, {"reduce.a": 4}])
        with self.assertRaisesRegex(ValueError, "nothing to confirm"):
            tune_plan.confirmation([record({}, "c1", [1.0]), record({"reduce.a": 4}, "c1", [1.5])])

    def test_a_profile_to_confirm_must_fit_the_space(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.json")
            for profile, error in (({"platform": "x86", "machine": "m", "reduce": {"a": 4}, "dispatch": {"reduce_x": 100}},
                                    None),
                                   ({"platform": "x86", "hdml_reduce_k1": {"a": 4}}, "kernel"),
                                   ({"platform": "x86", "hdml_reduce_k1": {"a": 3}}, "hdml_reduce_k1.a = 3 is not a value"),
                                   ({"platform": "cuda", "reduce": {"a": 4}}, "a profile for cuda"),
                                   ({"platform": "x86", "reduce": {"a": 3}}, "reduce.a = 3 is not a value"),
                                   ({"platform": "x86", "reduce": {"a": 2}}, "nothing to confirm")):
                with open(path, "w") as f:
                    json.dump(profile, f)
                if error is None:
                    self.assertEqual(tune_plan.profile_candidate(path, space()), {"reduce.a": 4})
                elif error == "kernel":
                    self.assertEqual(tune_plan.profile_candidate(path, space()), {"hdml_reduce_k1.a": 4})
                else:
                    with self.assertRaisesRegex(ValueError, error):
                        tune_plan.profile_candidate(path, space())

    def test_a_kernel_s_number_is_built_into_that_kernel_only(self):
        cases = {"c1": [("hdml_reduce_k1", "reduce"), ("hdml_copy_uint32", "copy")], "c2": [("hdml_reduce_k2", "reduce")]}
        self.assertEqual(tune_plan.kernel_entries({"reduce.a": 4}, cases), {"hdml_reduce_k1": {"a": 4}, "hdml_reduce_k2": {"a": 4}})
        self.assertEqual(tune_plan.kernel_entries({"hdml_reduce_k2.a": 4}, cases), {"hdml_reduce_k2": {"a": 4}})

    def test_thresholds_ride_as_overlays_on_the_library_of_their_generator_numbers(self):
        cases = {"c1": [("hdml_reduce_float32_inner_sum", "reduce"), ("hdml_copy_uint32", "copy")]}
        libraries, entries, overlays = tune_plan.pack(
            [{}, {"dispatch.reduce_x": 50}, {"reduce.a": 4}, {"reduce.a": 4, "dispatch.reduce_x": 50}], cases)
        self.assertEqual(len(libraries), 2)  # defaults, and reduce.a = 4
        self.assertEqual(libraries["defaults"], {})
        moved = tune_plan.candidate_id({"reduce.a": 4})
        self.assertEqual(libraries[moved], {"hdml_reduce_float32_inner_sum": {"a": 4}})
        self.assertEqual([e["lib"] for e in entries], ["defaults", "defaults", moved, moved])
        self.assertEqual([e.get("dispatch") is not None for e in entries], [False, True, False, True])
        self.assertEqual(sorted(overlays.values(), key=str), [{"reduce_x": 50}, {"reduce_x": 50}])
        self.assertEqual(len({e["id"] for e in entries}), 4)


class BuildTest(unittest.TestCase):
    """A profile written by apply is accepted by the build: its numbers reach the
    kernels' generator commands and the runtime's dispatch table."""

    def configure(self, d, profile, isa="avx2"):
        path = os.path.join(d, "p.json")
        tune_apply.write(profile, path)
        build = os.path.join(d, "build")
        result = subprocess.run(
            ["cmake", "-S", SOURCE, "-B", build, "-G", "Ninja", "-DHDML_TUNED=" + path, "-DHDML_PLATFORMS=x86;cuda",
             "-DHDML_X86_ISA=" + isa, "-DHDML_BUILD_TESTS=OFF", "-DHDML_BUILD_BENCHMARKS=OFF",
             "-DHDML_BUILD_EXAMPLES=OFF", "-DHDML_BUILD_DISPATCH=OFF", "-DHDML_SANITIZERS=OFF", "-DHDML_TSAN=OFF"],
            capture_output=True, text=True)
        return result, build

    def test_tuned_numbers_reach_kernels_and_thresholds(self):
        with tempfile.TemporaryDirectory() as d:
            result, build = self.configure(d, {"platform": "cuda", "machine": "test", "date": "2026-11-24",
                                               "reduce": {"gpu_unroll": 8},
                                               "hdml_arg_reduce_float32_outer_cols_warp_merge": {"gpu_unroll": 2},
                                               "dispatch": {"scan_line_walk_min_line": 256}})
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(build, "build.ninja")) as f:
                ninja = f.read()
            line = next(l for l in ninja.split("\n") if "-f hdml_reduce_float32_inner_sum_cuda " in l)
            self.assertIn("gpu_unroll=8", line)
            # A kernel's number (as apply writes a kernel move) reaches that kernel only.
            line = next(l for l in ninja.split("\n") if "-f hdml_arg_reduce_float32_outer_cols_warp_merge_cuda " in l)
            self.assertIn("gpu_unroll=2", line)
            line = next(l for l in ninja.split("\n") if "-f hdml_arg_reduce_float32_inner_cuda " in l)
            self.assertIn("gpu_unroll=4", line)
            x86 = next(l for l in ninja.split("\n") if "-f hdml_reduce_float32_inner_sum_x86 " in l)
            self.assertIn("target=x86-64-linux-avx-avx2-f16c-fma-sse41-", x86)  # HDML_X86_ISA=avx2: one variant
            with open(os.path.join(build, "generated", "hdml", "dispatch_cuda.inc")) as f:
                self.assertIn("HDML_THRESHOLD(scan_line_walk_min_line, 256)", f.read())

    def test_x86_variant_lists(self):
        """HDML_X86_ISA as a list (avx2;baseline: a portable binary in half the build time): those variants, in
        order, the last the fallback; a name out of order or unknown fails the configure."""
        profile = {"platform": "x86", "machine": "test", "date": "2026-12-02"}
        with tempfile.TemporaryDirectory() as d:
            result, build = self.configure(d, profile, isa="avx2;baseline")
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(os.path.join(build, "build.ninja")) as f:
                x86 = next(l for l in f.read().split("\n") if "-f hdml_reduce_float32_inner_sum_x86 " in l)
            targets = re.search(r"target=(\S+)", x86).group(1).split(",")
            self.assertEqual([t.split("-large_buffers")[0].split("-user_context")[0] for t in targets],
                             ["x86-64-linux-avx-avx2-f16c-fma-sse41", "x86-64-linux"])
        for isa, reason in (("baseline;avx2", "in the order avx512;avx2;sse41;baseline"),
                            ("avx2;avx2", "in the order avx512;avx2;sse41;baseline"),
                            ("avx2;sse3", "'sse3' is not a variant")):
            with tempfile.TemporaryDirectory() as d:
                result, _ = self.configure(d, profile, isa=isa)
                self.assertNotEqual(result.returncode, 0, isa)
                self.assertIn(reason, " ".join(result.stderr.split()))

    def test_a_bad_profile_fails_the_configure_with_its_reason(self):
        with tempfile.TemporaryDirectory() as d:
            result, _ = self.configure(d, {"platform": "x86", "reduce": {"accumulators": "many"}})
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("reduce.accumulators is 'many', not an integer", " ".join(result.stderr.split()))
            result, _ = self.configure(d, {"reduce": {"accumulators": 4}})
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("has no \"platform\"", " ".join(result.stderr.split()))


def built_platforms(build):
    return tune_plan.build_platforms(build) if build else []


def elf_machine(path):
    """An ELF file's e_machine (62 x86-64, 183 aarch64)."""
    with open(path, "rb") as f:
        header = f.read(20)
    assert header[:4] == b"\x7fELF", path
    return int.from_bytes(header[18:20], "little")


@unittest.skipUnless("arm" in built_platforms(BUILD), "needs an aarch64 cross build")
class ArmPlanTest(unittest.TestCase):
    """Plan here, measure on the board: arm candidates built in the cross build
    (kernels from the host build's generator), their harness listing kernels
    under qemu, and the packed DIR measured as on a board (here under qemu)."""

    def test_arm_candidates_are_planned_here_and_measured_there(self):
        with tempfile.TemporaryDirectory() as d:
            tool = os.path.join(SOURCE, "tools", "tune", "hdml-tune")
            work = os.path.join(d, "work")
            result = subprocess.run([sys.executable, tool, "plan", "--platform", "arm", "--families", "copy",
                                     "--build", BUILD, "--out", work], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            with open(os.path.join(work, "manifest.json")) as f:
                manifest = json.load(f)
            self.assertEqual((manifest["platform"], manifest["stage"]), ("arm", "search"))
            self.assertGreaterEqual(len(manifest["candidates"]), 5)  # the defaults and copy's one-step moves
            for lib in {c["lib"] for c in manifest["candidates"]}:
                self.assertEqual(elf_machine(os.path.join(work, "lib", lib, "libhdml.so.0")), 183)
            self.assertEqual(elf_machine(os.path.join(work, "bin", "hdml-tune-bench")), 183)
            env = dict(os.environ, HDML_TUNE_RUNNER="qemu-aarch64 -L /", HL_NUM_THREADS="2")
            result = subprocess.run([sys.executable, tool, "measure", work, "--passes", "1", "--repeats", "1"],
                                    env=env, capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            records = tune_log.read(os.path.join(work, "log.jsonl"))
            self.assertEqual({tune_log.candidate_key(r["candidate"]) for r in records},
                             {tune_log.candidate_key(c["candidate"]) for c in manifest["candidates"]})
            # Each candidate ran its own kernels: the defaults' end in _arm, a candidate's in _arm_<its library>.
            lib_of = {tune_log.candidate_key(c["candidate"]): c["lib"] for c in manifest["candidates"]}
            for r in records:
                lib = lib_of[tune_log.candidate_key(r["candidate"])]
                self.assertEqual(r["platform"], "arm")
                self.assertTrue(all(k.endswith("_arm") or (r["candidate"] and k.endswith("_arm_" + lib))
                                    for k in r["kernels"].split()), r)
                if any(n.startswith("copy.") for n in r["candidate"]):
                    self.assertTrue(any(k.endswith("_arm_" + lib) for k in r["kernels"].split()), r)
            with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
                self.assertIn("HDML_TUNE_CANDIDATES:STRING=\n", f.read())


@unittest.skipUnless("x86" in built_platforms(BUILD), "needs an x86 build directory")
class SmokeTuneTest(unittest.TestCase):
    def test_plan_names_the_build_a_platform_needs(self):
        tool = os.path.join(SOURCE, "tools", "tune", "hdml-tune")
        with tempfile.TemporaryDirectory() as d:
            result = subprocess.run([sys.executable, tool, "plan", "--platform", "arm", "--build", BUILD, "--out", d],
                                    capture_output=True, text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("not arm: plan --platform arm needs --build an aarch64 cross build", result.stderr)

    def test_local_tunes_the_copy_family_and_the_build_takes_the_profile(self):
        with tempfile.TemporaryDirectory() as d:
            tool = os.path.join(SOURCE, "tools", "tune", "hdml-tune")
            result = subprocess.run([sys.executable, tool, "local", "--platform", "x86", "--families", "copy",
                                     "--budget", "1m", "--name", "smoke", "--build", BUILD, "--out", d,
                                     "--work", os.path.join(d, "work"), "--passes", "2", "--repeats", "2"],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertTrue("| families | case | defaults (ms) | smoke (ms) | speed-up |" in result.stdout or
                            "no candidate beat the current numbers" in result.stdout, result.stdout)
            records = tune_log.read(os.path.join(d, "work", "log.jsonl"))
            # The defaults and the four one-step moves of copy's two numbers, every case, both passes.
            candidates = {tune_log.candidate_key(r["candidate"]) for r in records}
            self.assertIn((), candidates)
            self.assertGreaterEqual(len(candidates), 5)
            self.assertEqual({r["case"] for r in records}, {"split3/f32/inner", "split3/f32/outer"})
            with open(os.path.join(d, "smoke.json")) as f:
                profile = json.load(f)
            self.assertEqual(profile["platform"], "x86")
            # A number is written only after a confirmation round measured it again against the defaults.
            if "copy" in profile:
                self.assertTrue(any(tune_log.stage(r) == "confirm" for r in records))
            for key, value in profile.get("copy", {}).items():
                self.assertIn(value, tune_space.load(os.path.join(SOURCE, "schedules", "space", "x86.json"),
                                                     os.path.join(SOURCE, "schedules", "params", "x86.json")).values["copy." + key])
            # The host build is left as it was: no candidate targets.
            with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
                self.assertIn("HDML_TUNE_CANDIDATES:STRING=\n", f.read())
            result, _ = BuildTest.configure(self, d, profile)
            self.assertEqual(result.returncode, 0, result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
