#!/usr/bin/env bash
# A longer run of the mutation fuzz test: real logs changed at random (bytes, values, structure),
# sealed again with a correct checksum, imported. Never a crash, never a half-applied log.
#   scripts/fuzz-logs.sh [ITERATIONS] [FIRST_SEED]     (default 20000 files from seed 1)
# A failure names its seed; FUZZ_SEED=<seed> FUZZ_ITERATIONS=1 replays it alone.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build --build-tests
FUZZ_ITERATIONS="${1:-20000}" FUZZ_SEED="${2:-1}" \
  swift test --disable-xctest --skip-build --filter LogMutationFuzzTests
