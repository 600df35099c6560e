# Shared by bin/serve and bin/test: make .venv and install the project into it, only when
# pyproject.toml changed since the last install (so re-running is fast).
# Usage: . bin/_venv.sh EXTRAS   (EXTRAS: "" or "[test]")
set -euo pipefail
extras="${1:-}"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "Kilforth Online needs Python 3.11 or newer (found: $("$python" --version 2>&1))." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "Creating the virtual environment in .venv ..."
  "$python" -m venv .venv
fi
stamp=".venv/.installed$(echo "$extras" | tr -d '[]')-$(cat pyproject.toml | "$python" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:16])')"
if [ ! -f "$stamp" ]; then
  echo "Installing Kilforth Online$extras into .venv ..."
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".$extras"
  touch "$stamp"
fi
