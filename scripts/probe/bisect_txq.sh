# H200 probe helper: which txq forms load on real CUDA texture objects (one variant per form).
cd tests/targets
for k in 3 4 5 6 7 8 9 10; do
  others=$(echo 3 4 5 6 7 8 9 10 | tr ' ' '\n' | grep -vx $k | paste -sd'|')
  sed -E "/\"=r\"\(r\[($others)\]\)/d" h200_probe_txq_tld4.cu > /tmp/v$k.cu
  nvcc -arch=sm_90 -o /tmp/v$k /tmp/v$k.cu > /dev/null 2>&1
  echo "only r[$k] $(grep -o 'txq\.[a-z_.0-9]*' /tmp/v$k.cu | sed -n 7p): $(/tmp/v$k 2>&1 | sed -n 2p)"
done
