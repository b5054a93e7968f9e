; LLVM functions that x86 kernels built for AVX-512 call (generators/cpu_functions.h),
; beside cpu_functions.ll: a module of its own because only those kernels may
; hold these instructions. Names and linkage as there (Halide finds a vector
; version by name + "x<lanes>"; alwaysinline).

; 2^t in two instructions around a polynomial (generators/exp.cpp): vreduceps
; takes the fraction t - floor(t), exactly; vscalefps multiplies by
; 2^floor(t), saturating to 0 and +inf, so no clamps: -inf gives 0, +inf
; +inf, NaN NaN (the integer 2^n and its clamps take 6 instructions more a
; vector, Halide's exp about 12).
declare <16 x float> @llvm.x86.avx512.mask.reduce.ps.512(<16 x float>, i32 immarg, <16 x float>, i16, i32 immarg)
declare <16 x float> @llvm.x86.avx512.mask.scalef.ps.512(<16 x float>, <16 x float>, <16 x float>, i16, i32 immarg)

define weak_odr hidden <16 x float> @hdml_fraction_above_floorx16(<16 x float> %t) alwaysinline #0 {
  ; imm 1: round down (floor); rounding 4: the current direction (MXCSR), exceptions as usual.
  %f = call <16 x float> @llvm.x86.avx512.mask.reduce.ps.512(<16 x float> %t, i32 1, <16 x float> zeroinitializer, i16 -1, i32 4)
  ret <16 x float> %f
}

define weak_odr hidden float @hdml_fraction_above_floor(float %t) alwaysinline #0 {
  %v = insertelement <16 x float> undef, float %t, i32 0
  %f = call <16 x float> @hdml_fraction_above_floorx16(<16 x float> %v)
  %r = extractelement <16 x float> %f, i32 0
  ret float %r
}

define weak_odr hidden <16 x float> @hdml_times_exp2_floorx16(<16 x float> %p, <16 x float> %t) alwaysinline #0 {
  %r = call <16 x float> @llvm.x86.avx512.mask.scalef.ps.512(<16 x float> %p, <16 x float> %t, <16 x float> zeroinitializer, i16 -1, i32 4)
  ret <16 x float> %r
}

define weak_odr hidden float @hdml_times_exp2_floor(float %p, float %t) alwaysinline #0 {
  %vp = insertelement <16 x float> undef, float %p, i32 0
  %vt = insertelement <16 x float> undef, float %t, i32 0
  %r = call <16 x float> @hdml_times_exp2_floorx16(<16 x float> %vp, <16 x float> %vt)
  %s = extractelement <16 x float> %r, i32 0
  ret float %s
}

attributes #0 = { "target-features"="+avx512f,+avx512dq" "min-legal-vector-width"="512" }
