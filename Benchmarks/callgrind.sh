# Sourced by instruction-counts.sh and loopback-instruction-counts.sh: running one of this
# package's programs under valgrind 3.19, which is what Debian offers here.

# Builds PRODUCT in release mode and copies it into WORK, with the toolchain libraries it loads,
# without their debug information: valgrind 3.19 cannot read the DWARF 5 that Swift writes (the
# symbols stay, for profiles). The copy is WORK/program.
prepare_for_callgrind() { # product work
    command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
    swift build -c release --product "$1"
    local binary
    binary="$(swift build -c release --show-bin-path)/$1"
    mkdir -p "$2/lib"
    cp "$binary" "$2/program"
    strip --strip-debug "$2/program"
    ldd "$binary" | awk '$3 ~ /\/lib\/swift\// { print $3 }' | while read -r library; do
        cp "$library" "$2/lib/"
        strip --strip-debug "$2/lib/$(basename "$library")"
    done
}

# Runs WORK/program with ARGS under callgrind, its profile written to OUT. Swift seeds its hashing
# per process; it is fixed here, so that dictionaries do the same work each run.
callgrind_run() { # work out args...
    local work=$1 out=$2
    shift 2
    SWIFT_DETERMINISTIC_HASHING=1 LD_LIBRARY_PATH="$work/lib" valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$work/program" "$@"
}

# The instructions callgrind counted in the whole process, for the same arguments.
callgrind_count() { # work out args...
    callgrind_run "$@" 2>&1 | awk '/Collected :/ { print $4 }'
}
