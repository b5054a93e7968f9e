# Sourced by this day's GPU run.sh scripts (from the repository root, binaries in
# .device-bin): the CUDA split/join (also in word pairs) and kernel-choice suites, logs in $RES.
export LD_LIBRARY_PATH=$PWD/.device-bin
for s in split_join_test kernel_choice_test; do
    HDML_TEST_DEVICE=cuda .device-bin/$s > "$RES/$s.cuda.log" 2>&1; echo "$s rc=$?"; tail -2 "$RES/$s.cuda.log"
done
HDML_TEST_DEVICE=cuda HDML_64BIT_MOVES=word_pairs .device-bin/split_join_test > "$RES/split_join_test.cuda.word_pairs.log" 2>&1
echo "word pairs rc=$?"; tail -2 "$RES/split_join_test.cuda.word_pairs.log"
