#!/usr/bin/env bash
# `tfscope lint` end to end: exit statuses (0 clean, 1 findings, 2 usage errors), the text line
# format, JSON, SARIF valid against the published SARIF 2.1.0 schema (jsonschema), the
# [tool.tfscope.lint] table of pyproject.toml, noqa, and syntax errors.
#   cli_test.sh TFSCOPE_BINARY TESTS_LINT_DIR
set -uo pipefail
TFSCOPE="$1"
HERE="$2"
ROOT="$(cd "$HERE/../.." && pwd)"
PY="$ROOT/.venv/bin/python"
[ -x "$PY" ] || PY=python3
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fails=0
check() {  # check NAME EXPECTED_STATUS COMMAND...
  local name="$1" want="$2"
  shift 2
  "$@" > "$TMP/out" 2> "$TMP/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"; cat "$TMP/out" "$TMP/err"; fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}
expect_line() {  # expect_line NAME FILE TEXT
  if grep -qxF -- "$3" "$2"; then echo "ok   $1"; else
    echo "FAIL $1: no line '$3' in:"; cat "$2"; fails=$((fails + 1)); fi
}

mkdir -p "$TMP/proj/pkg"
cat > "$TMP/proj/pkg/hazard.py" <<'PY'
import tensorflow as tf


@tf.function
def step(x, n):
    print("tracing")
    return x * n


for i in range(3):
    step(tf.constant(1.0), i)
PY
cat > "$TMP/proj/pkg/clean.py" <<'PY'
import tensorflow as tf


@tf.function
def step(x, n):
    tf.print("running")
    return x * n


for i in range(3):
    step(tf.constant(1.0), tf.constant(float(i)))
PY
printf 'def f(x:\n    return x\n' > "$TMP/proj/pkg/broken.py"

check "clean file exits 0" 0 "$TFSCOPE" lint "$TMP/proj/pkg/clean.py"
expect_line "clean summary" "$TMP/out" "All checks passed (1 file)."
check "findings exit 1" 1 "$TFSCOPE" lint "$TMP/proj/pkg/hazard.py"
expect_line "text line format" "$TMP/out" \
  "$TMP/proj/pkg/hazard.py:6:5: TFS201 print() inside tf.function \`step\` runs only while tracing, not on every call"
check "a directory is searched" 1 "$TFSCOPE" lint "$TMP/proj"
expect_line "syntax error reported" "$TMP/out" \
  "$TMP/proj/pkg/broken.py:2:1: TFS000 SyntaxError: invalid syntax near 'return'"
expect_line "directory summary" "$TMP/out" "Found 3 findings in 3 files."
check "select" 1 "$TFSCOPE" lint --select TFS103 "$TMP/proj/pkg/hazard.py"
[ "$(grep -c ': TFS' "$TMP/out")" = 1 ] && echo "ok   select keeps one" || { echo "FAIL select"; fails=$((fails+1)); }
check "ignore everything found" 0 "$TFSCOPE" lint --ignore TFS1,TFS2 "$TMP/proj/pkg/hazard.py"
check "unknown code is a usage error" 2 "$TFSCOPE" lint --select E501 "$TMP/proj/pkg/hazard.py"
check "bad format is a usage error" 2 "$TFSCOPE" lint --format xml "$TMP/proj/pkg/hazard.py"
check "missing path is a usage error" 2 "$TFSCOPE" lint "$TMP/nope.py"
check "no path is a usage error" 2 "$TFSCOPE" lint

# noqa
sed 's/print("tracing")/print("tracing")  # noqa: TFS201/' "$TMP/proj/pkg/hazard.py" > "$TMP/proj/pkg/noqa.py"
check "noqa" 1 "$TFSCOPE" lint "$TMP/proj/pkg/noqa.py"
if grep -q TFS201 "$TMP/out"; then echo "FAIL noqa kept TFS201"; fails=$((fails+1)); else echo "ok   noqa drops TFS201"; fi

# pyproject.toml, found from the linted path
printf '[tool.tfscope.lint]\nignore = ["TFS201"]\nexclude = ["broken.py", "noqa.py"]\n' > "$TMP/proj/pyproject.toml"
check "config ignore + exclude" 1 "$TFSCOPE" lint "$TMP/proj"
expect_line "config summary" "$TMP/out" "Found 1 finding in 2 files."
check "--no-config" 1 "$TFSCOPE" lint --no-config "$TMP/proj/pkg/hazard.py"
[ "$(grep -c ': TFS' "$TMP/out")" = 2 ] && echo "ok   --no-config keeps both" || { echo "FAIL --no-config"; fails=$((fails+1)); }
printf '[tool.tfscope.lint]\nselect = ["TFS1"\n' > "$TMP/proj/pyproject.toml"
check "malformed pyproject is a usage error" 2 "$TFSCOPE" lint "$TMP/proj"
grep -q "pyproject.toml:3: expected ',' or ']' in an array" "$TMP/err" && echo "ok   malformed names the line" || { echo "FAIL malformed message"; cat "$TMP/err"; fails=$((fails+1)); }
rm "$TMP/proj/pyproject.toml"

# JSON and SARIF
check "json" 1 "$TFSCOPE" lint --format json "$TMP/proj/pkg/hazard.py"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [x["code"] for x in d]==["TFS201","TFS103"], d' "$TMP/out" \
  && echo "ok   json parses" || { echo "FAIL json"; fails=$((fails+1)); }
check "sarif" 1 "$TFSCOPE" lint --format sarif "$TMP/proj"
cp "$TMP/out" "$TMP/report.sarif"
"$PY" - "$TMP/report.sarif" "$HERE/fixtures/sarif-schema-2.1.0.json" <<'PYEOF'
import json, sys
import jsonschema
log = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
jsonschema.validate(log, schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
results = log["runs"][0]["results"]
assert len(results) == 4, results
print("sarif: %d results valid against SARIF 2.1.0" % len(results))
PYEOF
[ $? = 0 ] && echo "ok   sarif validates" || { echo "FAIL sarif schema"; fails=$((fails+1)); }
check "sarif when clean" 0 "$TFSCOPE" lint --format sarif "$TMP/proj/pkg/clean.py"
"$PY" -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
  "$TMP/out" "$HERE/fixtures/sarif-schema-2.1.0.json" && echo "ok   empty sarif validates" || { echo "FAIL empty sarif"; fails=$((fails+1)); }

# ledger
check "bad ledger is a usage error" 2 "$TFSCOPE" lint --ledger "$TMP/proj/pkg/clean.py" "$TMP/proj/pkg/hazard.py"

echo "$fails failed"
[ "$fails" = 0 ]
