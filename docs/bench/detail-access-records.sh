#!/bin/bash
# Alternating detail-read benchmark: base (main), new (this branch), none (main without the detail's record).
set -u
declare -A PORT=([base]=3811 [new]=3812 [none]=3813)
declare -A DIR=([base]=/work/wt-detail-perf-base [new]=/work/wt-detail-perf [none]=/work/wt-detail-perf-none)
declare -A SPID=()
for b in base new none; do
  (cd ${DIR[$b]} && PORT=${PORT[$b]} HOST=127.0.0.1 LOG_LEVEL=warn RATE_LIMIT_PER_ADDRESS=1000000 RATE_LIMIT_PER_ACCOUNT=1000000 \
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dp_$b JWT_SECRET=bench-secret-bench-secret-bench-secret-1234 \
    exec node --import tsx src/main.ts > /tmp/dp-svc-$b.log 2>&1) &
  SPID[$b]=$!
done
sleep 12
for b in base new none; do curl -s 127.0.0.1:${PORT[$b]}/api/v1/health; echo " $b"; done
run () { # build as rounds
  local b=$1 as=$2
  local pid=${SPID[$b]}
  cd /work/wt-detail-perf && flock /tmp/bench.lock npm run bench --silent -- --base http://127.0.0.1:${PORT[$b]}/api/v1 \
    --database-url postgres://postgres@127.0.0.1:5432/dp_$b --pid $pid --scenarios detail --duration 10 --warmup 2 --runs 1 \
    --as $as --label "$b as demo-$as" --json /tmp/dp-results.json 2>/dev/null | grep -v "^$"
}
for round in 1 2 3; do
  for b in base new none; do run $b 2; done
done
for round in 1 2 3; do
  for b in base new; do run $b 101; done
done
for b in base new none; do kill ${SPID[$b]} 2>/dev/null; done
