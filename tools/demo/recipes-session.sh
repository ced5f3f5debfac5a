#!/usr/bin/env bash
# A first run of the reference recipe manager as a user would do it with curl: setup of the first admin, the
# SMTP settings pointing at a local SMTP server, registration closed and an invite made, registration with the
# invite, the verification mail received and its link followed, login, a recipe with a main photo and a step
# photo, another one imported from a web page, found by search, made public and read without a token.
# Everything runs on 127.0.0.1 in a temporary folder, removed at the end.
#
#   bash tools/demo/recipes-session.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d /tmp/recipes-demo.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
SMTP=$(free_port)
PAGES=$(free_port)
API="http://127.0.0.1:$PORT"

# Prints a command as typed (with $API and $TOKEN names kept short), runs it, prints the answer.
run() {
  local shown="" arg
  for arg in "$@"; do
    arg=${arg//$WORK/\$WORK}
    arg=${arg//$API/\$API}
    [ -n "${ADMIN:-}" ] && arg=${arg//$ADMIN/\$ADMIN}
    [ -n "${TOKEN:-}" ] && arg=${arg//$TOKEN/\$TOKEN}
    if [[ $arg =~ ^[A-Za-z0-9_./:=@%+,\$-]+$ ]]; then shown+="$arg "
    elif [[ $arg == *'$'* && $arg != *'"'* ]]; then shown+="\"$arg\" "
    else shown+="'$arg' "; fi
  done
  printf '\n$ %s\n' "${shown% }" >&2
  "$@"
}
json() { jq -c . | tee /dev/stderr; }

mkdir -p "$WORK/mail"
node "$ROOT/tools/demo/smtp-sink.mjs" "$SMTP" "$WORK/mail" & PIDS+=($!)
python3 -m http.server "$PAGES" --bind 127.0.0.1 --directory "$ROOT/fixtures/recipes/import" >/dev/null 2>&1 & PIDS+=($!)

echo "# the recipe manager, a local SMTP server on port $SMTP and a web page server on port $PAGES" >&2
echo "\$ JWT_SECRET=… PORT=$PORT APP_URL=$API RECIPES_DB_FILE=\$WORK/data/recipes.json RECIPES_UPLOADS_DIR=\$WORK/uploads recipes &" >&2
JWT_SECRET=$(head -c 48 /dev/urandom | base64) PORT=$PORT APP_URL=$API RECIPES_HOST=127.0.0.1 \
  RECIPES_DB_FILE="$WORK/data/recipes.json" RECIPES_UPLOADS_DIR="$WORK/uploads" RECIPES_IMPORT_PRIVATE=allow \
  node "$ROOT/reference/recipes/bin/recipes.js" & PIDS+=($!)
for _ in $(seq 100); do curl -sf "$API/health" >/dev/null 2>&1 && break; sleep 0.1; done

run curl -s "$API/health" | json >/dev/null
run curl -s "$API/api/admin/setup" | json >/dev/null
ADMIN=$(run curl -s -X POST "$API/api/admin/setup" -H 'content-type: application/json' \
  -d '{"email":"chef@example.test","password":"first-admin-pass","name":"Head Chef"}' | json | jq -r .token)
run curl -s -X PATCH "$API/api/admin/settings" -H "authorization: Bearer $ADMIN" -H 'content-type: application/json' \
  -d "{\"smtpHost\":\"127.0.0.1\",\"smtpPort\":$SMTP,\"smtpFrom\":\"recipes@example.test\",\"allowRegistration\":false}" | json >/dev/null
INVITE=$(run curl -s -X POST "$API/api/admin/invites" -H "authorization: Bearer $ADMIN" | json | jq -r .token)
run curl -s "$API/api/admin/invites" -H "authorization: Bearer $ADMIN" | json >/dev/null

echo -e "\n# registration is closed: without the invite it is refused, with it the account is made" >&2
run curl -s -X POST "$API/api/auth/register" -H 'content-type: application/json' \
  -d '{"email":"ana@example.test","password":"ana-password-1","name":"Ana"}' | json >/dev/null
run curl -s -X POST "$API/api/auth/register" -H 'content-type: application/json' \
  -d "{\"email\":\"ana@example.test\",\"password\":\"ana-password-1\",\"name\":\"Ana\",\"inviteToken\":\"$INVITE\"}" | json >/dev/null
run curl -s -X POST "$API/api/auth/login" -H 'content-type: application/json' \
  -d '{"email":"ana@example.test","password":"ana-password-1"}' | json >/dev/null

for _ in $(seq 100); do [ -f "$WORK/mail/1.txt" ] && break; sleep 0.1; done
echo -e "\n# the verification mail, as the local SMTP server received it" >&2
sed 's/^/    /' "$WORK/mail/1.txt" >&2
LINK=$(grep -o 'http://[^ ]*verify-email?token=[A-Za-z0-9_-]*' "$WORK/mail/1.txt" | head -1)
run curl -s "$LINK" | json >/dev/null
TOKEN=$(run curl -s -X POST "$API/api/auth/login" -H 'content-type: application/json' \
  -d '{"email":"ana@example.test","password":"ana-password-1"}' | json | jq -r .token)

echo -e "\n# a recipe with a main photo and a photo of step 2" >&2
ID=$(run curl -s -X POST "$API/api/recipes" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d '{"title":"Lemon pancakes","servings":4,"category":"breakfast","tags":["Sweet","quick"],
       "ingredients":[{"name":"flour","quantity":1.5,"unit":"cup"},{"name":"lemon zest","quantity":1,"unit":"tbsp"}],
       "steps":[{"order":1,"text":"Whisk everything."},{"order":2,"text":"Fry small pancakes."}]}' | json | jq -r .id)
# A 1x1 PNG and a 1x1 GIF.
echo 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' | base64 -d >"$WORK/pancakes.png"
echo 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==' | base64 -d >"$WORK/pan.gif"
PHOTO=$(run curl -s -X POST "$API/api/recipes/$ID/photo" -H "authorization: Bearer $TOKEN" -F "photo=@$WORK/pancakes.png" | json | jq -r .photoUrl)
run curl -s -X POST "$API/api/recipes/$ID/steps/2/photo" -H "authorization: Bearer $TOKEN" -F "photo=@$WORK/pan.gif" | jq -c '.steps' >&2
run curl -s "$API/api/recipes/$ID?servings=8" -H "authorization: Bearer $TOKEN" | jq -c '{servings, ingredients}' >&2

echo -e "\n# another recipe imported from a web page (schema.org JSON-LD), then saved" >&2
DRAFT=$(run curl -s -X POST "$API/api/recipes/import-url" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d "{\"url\":\"http://127.0.0.1:$PAGES/jsonld-plain.html\"}" | json)
run curl -s -X POST "$API/api/recipes" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d "$(jq -c '{title, description, servings, ingredients, steps, tags, sourceUrl}' <<<"$DRAFT")" | jq -c '{id, title, sourceUrl}' >&2

echo -e "\n# found by search; private: not readable without a token; made public: readable by anyone" >&2
run curl -s "$API/api/recipes?q=lemon" -H "authorization: Bearer $TOKEN" | jq -c '{total, titles: [.items[].title]}' >&2
run curl -s -o /dev/null -w '%{http_code}\n' "$API/api/recipes/$ID" >&2
run curl -s -X PATCH "$API/api/recipes/$ID" -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d '{"isPublic":true}' | jq -c '{id, isPublic}' >&2
run curl -s "$API/api/recipes/$ID" | jq -c '{title, isPublic, photoUrl, tags}' >&2
run curl -s "$API/api/recipes/public" | jq -c '{total, titles: [.items[].title]}' >&2
run curl -s -o /dev/null -w '%{http_code} %{content_type} %{size_download} bytes\n' "$API$PHOTO" >&2
