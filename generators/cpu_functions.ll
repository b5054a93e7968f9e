; LLVM functions that the CPU kernels call (generators/cpu_functions.h). Halide
; finds a call's vector version by its name + "x<lanes>"
; (find_vector_runtime_function) and inlines it (alwaysinline). weak_odr hidden:
; every kernel object carries a copy; the linker keeps one, and none is exported.
; The build compiles this file for each CPU triple with clang 14 (the LLVM of
; Halide 14), which sets the triple's data layout; see cmake/HdmlKernels.cmake.

; float16 <-> float32 conversions, where the CPU converts in hardware (x86 with
; F16C, aarch64). Halide 14 converts float16 with ~14 integer instructions per
; vector; these are LLVM's own fpext and fptrunc (round to nearest even), which
; LLVM lowers to vcvtph2ps/vcvtps2ph or fcvtl/fcvtn.

define weak_odr hidden float @hdml_f16_to_f32(i16 %bits) alwaysinline {
  %h = bitcast i16 %bits to half
  %f = fpext half %h to float
  ret float %f
}

define weak_odr hidden <4 x float> @hdml_f16_to_f32x4(<4 x i16> %bits) alwaysinline {
  %h = bitcast <4 x i16> %bits to <4 x half>
  %f = fpext <4 x half> %h to <4 x float>
  ret <4 x float> %f
}

define weak_odr hidden <8 x float> @hdml_f16_to_f32x8(<8 x i16> %bits) alwaysinline {
  %h = bitcast <8 x i16> %bits to <8 x half>
  %f = fpext <8 x half> %h to <8 x float>
  ret <8 x float> %f
}

define weak_odr hidden <16 x float> @hdml_f16_to_f32x16(<16 x i16> %bits) alwaysinline {
  %h = bitcast <16 x i16> %bits to <16 x half>
  %f = fpext <16 x half> %h to <16 x float>
  ret <16 x float> %f
}

define weak_odr hidden i16 @hdml_f32_to_f16(float %f) alwaysinline {
  %h = fptrunc float %f to half
  %bits = bitcast half %h to i16
  ret i16 %bits
}

define weak_odr hidden <4 x i16> @hdml_f32_to_f16x4(<4 x float> %f) alwaysinline {
  %h = fptrunc <4 x float> %f to <4 x half>
  %bits = bitcast <4 x half> %h to <4 x i16>
  ret <4 x i16> %bits
}

define weak_odr hidden <8 x i16> @hdml_f32_to_f16x8(<8 x float> %f) alwaysinline {
  %h = fptrunc <8 x float> %f to <8 x half>
  %bits = bitcast <8 x half> %h to <8 x i16>
  ret <8 x i16> %bits
}

define weak_odr hidden <16 x i16> @hdml_f32_to_f16x16(<16 x float> %f) alwaysinline {
  %h = fptrunc <16 x float> %f to <16 x half>
  %bits = bitcast <16 x half> %h to <16 x i16>
  ret <16 x i16> %bits
}

; A read prefetch of base + offset bytes into every cache level (prefetcht0,
; prfm pldl1keep); returns 0, which the caller adds to a load's index so that
; Halide keeps the call (generators/prefetch.h). Prefetches never fault.
declare void @llvm.prefetch.p0i8(i8*, i32, i32, i32)

define weak_odr hidden i32 @hdml_prefetch(i8* %base, i64 %offset) alwaysinline {
  %address = getelementptr i8, i8* %base, i64 %offset
  call void @llvm.prefetch.p0i8(i8* %address, i32 0, i32 3, i32 1)
  ret i32 0
}
