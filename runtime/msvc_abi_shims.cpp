// Two symbols that Halide's x86-64-windows objects expect from Microsoft's C
// runtime and that MinGW-w64 names otherwise; linked into MinGW builds only.
//   _fltused   MSVC's marker that floating point is used (its value is unused).
//   __chkstk   the stack probe LLVM calls before frames over 4 KiB; libgcc's
//              ___chkstk_ms has the same contract on x86-64 (size in RAX, probes
//              each page, leaves RSP and RAX as they were).
extern "C" {
int _fltused = 0;
}
asm(".globl __chkstk\n"
    "__chkstk:\n"
    "    jmp ___chkstk_ms\n");
