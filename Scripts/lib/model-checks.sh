# What Scripts/check-runtime-flavor.sh and Scripts/check-coredata-flavor.sh share, sourced by both.
#
#   default_models             prints the models to check when none are named: Models/ and the shared corpus
#                              beside the repository (when it is there), sorted
#   run_model_checks WORK M…   calls the script's `check_model MODEL OUT` for each model, as many at once as there
#                              are processors (each type-check is one swiftc process); OUT is a path in WORK named
#                              after the model. check_model writes the outcome (pass, stubbed, fail or skipped) to
#                              OUT.result and anything to print to OUT.report. Afterwards the reports are printed
#                              in the models' order and pass, stubbed, fail and skipped hold the counts.
#   generation_failed MODEL OUT   records that MODEL did not generate (OUT.log holds the tool's output)
#   typecheck_and_record MODEL OUT  type-checks OUT with the script's `typecheck`, then with the app's types stubbed
#                              (the script's `stub_app_types`), and records the outcome
default_models() {
    { ls -d Models/*.xcdatamodeld
      find ../shared/corpus/models -name '*.xcdatamodeld' -type d 2>/dev/null
      find ../shared/corpus/models -name '*.xcdatamodel' -type d -not -path '*.xcdatamodeld/*' 2>/dev/null
    } | sort
}

run_model_checks() {
    local work=$1 parallel model out
    shift
    parallel=$(nproc 2>/dev/null || echo 2)
    local outputs=()
    for model in "$@"; do
        out="$work/$(echo "$model" | tr '/ ' '__')"
        outputs+=("$out")
        while [ "$(jobs -pr | wc -l)" -ge "$parallel" ]; do wait -n; done
        check_model "$model" "$out" &
    done
    wait
    pass=0; stubbed=0; fail=0; skipped=0
    for out in "${outputs[@]}"; do
        [ -f "$out.report" ] && cat "$out.report"
        case "$(cat "$out.result" 2>/dev/null)" in
            pass) pass=$((pass + 1)) ;;
            stubbed) stubbed=$((stubbed + 1)) ;;
            skipped) skipped=$((skipped + 1)) ;;
            *) fail=$((fail + 1)) ;;  # no outcome written: the check itself broke
        esac
    done
}

generation_failed() {
    { echo "FAIL (generation failed) $1"; grep -m 5 'error:' "$2.log" | sed 's/^/     /'; } >"$2.report"
    echo skipped >"$2.result"
}

typecheck_and_record() {
    local model=$1 out=$2
    if typecheck "$out"; then
        echo pass >"$out.result"; [ "$verbose" = 1 ] && echo "ok   $model" >"$out.report"
    elif stub_app_types "$out"; then
        echo stubbed >"$out.result"; [ "$verbose" = 1 ] && echo "ok (app types stubbed) $model" >"$out.report"
    else
        echo fail >"$out.result"
        { echo "FAIL $model"; grep -m 5 'error:' "$out.errors" | sed 's/^/     /'; } >"$out.report"
    fi
    return 0
}
