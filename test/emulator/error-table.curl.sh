#!/usr/bin/env bash
# Reproduces every row of the spec's error table (service-interfaces.md §7) against a running emulator with curl.
#   bash test/emulator/error-table.curl.sh /path/to/info.json
# The info file is the one `node dist/emulator.js --seed demo --info FILE` writes ({url, organization, tokens}).
# Prints one line per row: "PASS|FAIL <operation> <expected> <got>", where <got> lists the status of each case
# tried for that row (comma-separated). Exits 1 on any FAIL (a failed set-up step prints "FAIL setup …").
# It resets the emulator first (POST /_emulator/reset), so it can run again on the same emulator. JSON is read
# with jq when installed, else with node -e.
set -u

INFO="${1:?usage: error-table.curl.sh <info.json>}"
[ -r "$INFO" ] || { echo "FAIL setup cannot-read-info-file $INFO"; exit 1; }
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FAILED=0

# --- JSON helpers (jq if installed, else node) --------------------------------------------------------------
# jfield PATH: a dotted path (data.id, tokens.owner) of the JSON on stdin; empty when absent.
if command -v jq >/dev/null 2>&1; then
  jfield() { jq -r ".$1 // empty"; }
  # first_with_status STATUS: the id of the first run in a list document (stdin) with that status.
  first_with_status() { jq -r --arg s "$1" '[.data[] | select(.attributes.status == $s)][0].id // empty'; }
else
  jfield() {
    node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{let v;try{v=JSON.parse(s)}catch{v=undefined}
      for(const k of process.argv[1].split("."))v=v==null?undefined:v[k];if(v!=null)process.stdout.write(String(v))})' "$1"
  }
  first_with_status() {
    node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{let d=[];try{d=JSON.parse(s).data||[]}catch{}
      const r=d.find(x=>x.attributes&&x.attributes.status===process.argv[1]);if(r)process.stdout.write(r.id)})' "$1"
  }
fi

URL="$(jfield url <"$INFO")"
OWNER="$(jfield tokens.owner <"$INFO")"
MEMBER="$(jfield tokens.member <"$INFO")"
READER="$(jfield tokens.reader <"$INFO")"
ORGTOKEN="$(jfield tokens.organization <"$INFO")"
API="$URL/api/v2"
[ -n "$URL" ] && [ -n "$OWNER" ] && [ -n "$ORGTOKEN" ] || { echo "FAIL setup info-file-incomplete"; exit 1; }

# --- HTTP helpers ---------------------------------------------------------------------------------------------
# req METHOD PATH TOKEN [BODY]: sets STATUS and leaves the response body in $TMP/body. Every request sends the
# spec's two headers. A 429 (rate limit) is retried after a second, up to 5 times.
req() {
  local method="$1" path="$2" token="$3" body="${4-}" attempt
  for attempt in 1 2 3 4 5 6; do
    if [ -n "$body" ]; then
      STATUS="$(curl -sS -o "$TMP/body" -w '%{http_code}' -X "$method" \
        -H 'Content-Type: application/vnd.api+json' -H "Authorization: Bearer $token" \
        --data-binary "$body" "$API$path")"
    else
      STATUS="$(curl -sS -o "$TMP/body" -w '%{http_code}' -X "$method" \
        -H 'Content-Type: application/vnd.api+json' -H "Authorization: Bearer $token" "$API$path")"
    fi
    [ "$STATUS" = 429 ] || return 0
    sleep 1
  done
}

# control PATH [BODY]: POST to the emulator's control API (loopback, no token).
control() {
  curl -sS -o "$TMP/control" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    --data-binary "${2-}" "$URL/_emulator/$1"
}

advance() {
  local code
  code="$(control clock/advance "{\"ms\": $1}")"
  [ "$code" = 200 ] || setup_fail "clock-advance-$1ms" 200 "$code"
}

setup_fail() { echo "FAIL setup $1 $2 $3"; FAILED=1; }

# expect_setup NAME EXPECTED METHOD PATH TOKEN [BODY]: a set-up step that must succeed.
expect_setup() {
  local name="$1" expected="$2"
  shift 2
  req "$@"
  [ "$STATUS" = "$expected" ] || setup_fail "$name" "$expected" "$STATUS"
}

# Row bookkeeping: row_begin, then case METHOD PATH TOKEN [BODY] for each way of meeting the condition, then row_end.
row_begin() { ROW_OP="$1"; ROW_EXPECTED="$2"; ROW_GOT=""; ROW_OK=1; }
case_() {
  req "$@"
  ROW_GOT="${ROW_GOT:+$ROW_GOT,}$STATUS"
  [ "$STATUS" = "$ROW_EXPECTED" ] || ROW_OK=0
}
row_end() {
  if [ "$ROW_OK" = 1 ]; then echo "PASS $ROW_OP $ROW_EXPECTED $ROW_GOT"; else echo "FAIL $ROW_OP $ROW_EXPECTED $ROW_GOT"; FAILED=1; fi
}

run_status() {
  req GET "/runs/$1" "$OWNER"
  jfield data.attributes.status <"$TMP/body"
}

# --- Set-up: the demo seed, fresh -----------------------------------------------------------------------------
code="$(control reset)"
[ "$code" = 204 ] || { echo "FAIL setup emulator-reset 204 $code"; exit 1; }

workspace_id() {
  req GET "/organizations/$1/workspaces/$2" "$OWNER"
  jfield data.id <"$TMP/body"
}
DEMO_APP="$(workspace_id acme-demo demo-app)"
SANDBOX="$(workspace_id acme-demo sandbox)"
LEGACY="$(workspace_id acme-demo legacy-batch)"
STAGING="$(workspace_id acme-demo staging-api)"
HELLO="$(workspace_id acme-free hello-world)"
[ -n "$DEMO_APP" ] && [ -n "$SANDBOX" ] && [ -n "$LEGACY" ] && [ -n "$STAGING" ] && [ -n "$HELLO" ] ||
  { echo "FAIL setup seeded-workspaces-missing (is this the demo seed?)"; exit 1; }

ALL_OPS='filter%5Boperation%5D=plan_only,plan_and_apply,save_plan,refresh_only,destroy,empty_apply'
req GET "/workspaces/$DEMO_APP/runs?$ALL_OPS" "$OWNER"
cp "$TMP/body" "$TMP/demo-runs"
RUN_APPLIED="$(first_with_status applied <"$TMP/demo-runs")"           # final
RUN_DISCARDED="$(first_with_status discarded <"$TMP/demo-runs")"       # final
RUN_PLAN_ONLY="$(first_with_status planned_and_finished <"$TMP/demo-runs")"
RUN_AWAITING="$(first_with_status policy_checked <"$TMP/demo-runs")"   # paused for confirmation; holds demo-app
RUN_PENDING="$(first_with_status pending <"$TMP/demo-runs")"           # queued behind RUN_AWAITING
req GET "/workspaces/$LEGACY/runs" "$OWNER"
RUN_ERRORED="$(first_with_status errored <"$TMP/body")"
req GET "/workspaces/$HELLO/runs" "$OWNER"
RUN_FREE="$(first_with_status applied <"$TMP/body")"                   # acme-free: member and reader are not in it
req GET "/workspaces/$STAGING/runs" "$OWNER"
RUN_STAGING_APPLIED="$(first_with_status applied <"$TMP/body")"        # staging-api: member has write, not admin
for name in RUN_APPLIED RUN_DISCARDED RUN_PLAN_ONLY RUN_AWAITING RUN_PENDING RUN_ERRORED RUN_FREE RUN_STAGING_APPLIED; do
  [ -n "${!name}" ] || { echo "FAIL setup seeded-run-missing $name"; exit 1; }
done
NO_RUN="run-DoesNotExist0000"

# A pending run whose workspace is locked by a user, not a run (sandbox is locked by olivia; member is admin there).
expect_setup create-run-in-locked-sandbox 201 POST /runs "$MEMBER" \
  "{\"data\":{\"type\":\"runs\",\"relationships\":{\"workspace\":{\"data\":{\"type\":\"workspaces\",\"id\":\"$SANDBOX\"}}}}}"
RUN_SANDBOX_PENDING="$(jfield data.id <"$TMP/body")"
[ "$(run_status "$RUN_SANDBOX_PENDING")" = pending ] || setup_fail sandbox-run-pending pending "$(run_status "$RUN_SANDBOX_PENDING")"

run_body() { # run_body WORKSPACE_ID ATTRIBUTES_JSON
  echo "{\"data\":{\"type\":\"runs\",\"attributes\":$2,\"relationships\":{\"workspace\":{\"data\":{\"type\":\"workspaces\",\"id\":\"$1\"}}}}}"
}

# --- Rows -----------------------------------------------------------------------------------------------------
# Create run 404: organization or workspace not found, or caller not authorized.
row_begin create-run 404
case_ POST /runs "$OWNER" "$(run_body ws-DoesNotExist00000 '{}')"      # no such workspace
case_ POST /runs "$READER" "$(run_body "$DEMO_APP" '{}')"               # read access cannot queue plans
case_ POST /runs "$ORGTOKEN" "$(run_body "$DEMO_APP" '{}')"             # organization tokens cannot create runs
case_ POST /runs "$MEMBER" "$(run_body "$HELLO" '{}')"                  # not a member of acme-free
row_end

# Create run 422: malformed body.
row_begin create-run 422
case_ POST /runs "$OWNER" '{}'                                                              # no data
case_ POST /runs "$OWNER" '{"data":{"type":"runs","attributes":{"message":"no workspace"}}}' # no workspace relationship
case_ POST /runs "$OWNER" "$(run_body "$DEMO_APP" '{"is-destroy":"yes"}')"                   # wrong type
case_ POST /runs "$OWNER" "$(run_body "$DEMO_APP" '{"is-destroy":true,"refresh-only":true}')" # mutually exclusive
case_ POST /runs "$OWNER" "$(run_body "$DEMO_APP" '{"engine-version":"1.9.5"}')"             # engine-version needs plan-only
case_ POST /runs "$OWNER" "$(run_body "$DEMO_APP" '{"variables":[{"key":"region","value":"eu-west-1"}]}')" # not an HCL literal
case_ POST /runs "$OWNER" "$(run_body "$DEMO_APP" '{"target-addrs":"aws_instance.web"}')"   # not an array
row_end

# Get run details 404: run not found or caller not authorized.
row_begin get-run-details 404
case_ GET "/runs/$NO_RUN" "$OWNER"
case_ GET "/runs/$RUN_FREE" "$MEMBER"
case_ GET "/runs/$RUN_FREE" "$READER"
row_end

# Apply 409: run was not paused for confirmation.
row_begin apply 409
case_ POST "/runs/$RUN_PENDING/actions/apply" "$OWNER" '{"comment":"not paused yet"}'
case_ POST "/runs/$RUN_APPLIED/actions/apply" "$OWNER"
case_ POST "/runs/$RUN_ERRORED/actions/apply" "$OWNER"
case_ POST "/runs/$RUN_PLAN_ONLY/actions/apply" "$OWNER"
row_end

# Discard 409: run was not paused for confirmation or priority.
row_begin discard 409
case_ POST "/runs/$RUN_APPLIED/actions/discard" "$OWNER"
case_ POST "/runs/$RUN_DISCARDED/actions/discard" "$OWNER"
case_ POST "/runs/$RUN_ERRORED/actions/discard" "$OWNER" '{"comment":"too late"}'
case_ POST "/runs/$RUN_PLAN_ONLY/actions/discard" "$OWNER"
row_end

# Cancel 409: run was not planning or applying.
row_begin cancel 409
case_ POST "/runs/$RUN_PENDING/actions/cancel" "$OWNER"
case_ POST "/runs/$RUN_AWAITING/actions/cancel" "$OWNER"
case_ POST "/runs/$RUN_APPLIED/actions/cancel" "$OWNER"
row_end

# Cancel 404: run not found or caller not authorized.
row_begin cancel 404
case_ POST "/runs/$NO_RUN/actions/cancel" "$OWNER"
case_ POST "/runs/$RUN_PENDING/actions/cancel" "$ORGTOKEN"
case_ POST "/runs/$RUN_PENDING/actions/cancel" "$READER"
case_ POST "/runs/$RUN_PENDING/actions/cancel" "$MEMBER"     # plan access on demo-app: may queue, not apply
row_end

# Force-execute 403: run not pending, or its workspace not locked by another run.
row_begin force-execute 403
case_ POST "/runs/$RUN_APPLIED/actions/force-execute" "$OWNER"
case_ POST "/runs/$RUN_AWAITING/actions/force-execute" "$OWNER"          # holds the workspace itself, not pending
case_ POST "/runs/$RUN_SANDBOX_PENDING/actions/force-execute" "$OWNER"   # locked by a user, not by a run
row_end

# Force-execute 404: run not found or caller not authorized.
row_begin force-execute 404
case_ POST "/runs/$NO_RUN/actions/force-execute" "$OWNER"
case_ POST "/runs/$RUN_PENDING/actions/force-execute" "$ORGTOKEN"
case_ POST "/runs/$RUN_PENDING/actions/force-execute" "$READER"
case_ POST "/runs/$RUN_PENDING/actions/force-execute" "$MEMBER"
row_end

# Force-cancel 404: run not found or caller not authorized (needs admin).
row_begin force-cancel 404
case_ POST "/runs/$NO_RUN/actions/force-cancel" "$OWNER"
case_ POST "/runs/$RUN_AWAITING/actions/force-cancel" "$ORGTOKEN"
case_ POST "/runs/$RUN_AWAITING/actions/force-cancel" "$MEMBER"                # plan access on demo-app
case_ POST "/runs/$RUN_STAGING_APPLIED/actions/force-cancel" "$MEMBER"         # write, not admin, on staging-api
row_end

# Confirm the paused run and move the clock until it is applying (confirmed 1 s → apply_queued 1.5 s → applying).
expect_setup apply-awaiting-run 202 POST "/runs/$RUN_AWAITING/actions/apply" "$OWNER" '{"comment":"go"}'
advance 3000
state="$(run_status "$RUN_AWAITING")"
[ "$state" = applying ] || setup_fail awaiting-run-applying applying "$state"

# Force-execute 409: the run locking the workspace (applying) is not discardable.
row_begin force-execute 409
case_ POST "/runs/$RUN_PENDING/actions/force-execute" "$OWNER"
row_end

# Force-cancel 409: not planning/applying; no earlier normal cancel; cool-off not passed.
row_begin force-cancel 409
case_ POST "/runs/$RUN_APPLIED/actions/force-cancel" "$OWNER"       # not running
case_ POST "/runs/$RUN_AWAITING/actions/force-cancel" "$OWNER"      # applying, but never canceled
expect_setup cancel-applying-run 202 POST "/runs/$RUN_AWAITING/actions/cancel" "$OWNER"
case_ POST "/runs/$RUN_AWAITING/actions/force-cancel" "$OWNER"      # canceled, cool-off (10 s) not over
row_end
# The same request is accepted once the cool-off has passed (the 409s above were about the state, not a blanket no).
advance 11000
expect_setup force-cancel-after-cool-off 202 POST "/runs/$RUN_AWAITING/actions/force-cancel" "$OWNER"

# Generate organization token 404: caller not authorized (only the owners team, its token, the organization token).
row_begin generate-organization-token 404
case_ POST /organizations/acme-demo/authentication-token "$MEMBER" '{"data":{"type":"authentication-token"}}'
case_ POST /organizations/acme-demo/authentication-token "$READER" '{"data":{"type":"authentication-token"}}'
case_ POST /organizations/acme-free/authentication-token "$MEMBER" '{"data":{"type":"authentication-token"}}'
row_end

# Delete organization token 404: caller not authorized.
row_begin delete-organization-token 404
case_ DELETE /organizations/acme-demo/authentication-token "$MEMBER"
case_ DELETE /organizations/acme-demo/authentication-token "$READER"
case_ DELETE /organizations/acme-free/authentication-token "$READER"
row_end
# The organization token still works: none of the refused calls replaced or deleted it.
expect_setup organization-token-intact 200 GET "/organizations/acme-demo/workspaces/demo-app" "$ORGTOKEN"

exit "$FAILED"
