# On the GPU machine's CPU: the library before this change (def: 732e6dc's
# kernels) and with it (new: LOG_SUM_EXP's AVX-512 exp, SUM's and AVERAGE's own
# finishes), both x86 single-ISA AVX-512 builds, paired over the SUM and
# LOG_SUM_EXP cases of bench/cpu/corpus.json at 16 and 2 threads; then the
# CPU table of `new` against PyTorch. .device-bin holds the libraries as .xz
# and cpu_roofline. PART=pairs-and-16 (the first device call) or table-2.
set -x
case ${PART:?} in
pairs-and-16)
    for t in 16 2; do .device-bin/cpu_roofline --threads $t 2>&1 | tail -2; done > $OUT/roofline.jsonl
    THREADS="16 2" REPEATS=3 CASES='reduce/(sum|log_sum_exp)/' bash bench/cpu/device_run.sh pairs
    THREADS=16 LIB=new bash bench/cpu/device_run.sh table ;;
table-2)
    THREADS=2 LIB=new bash bench/cpu/device_run.sh table ;;
esac
