#!/usr/bin/env bash
# Run the OpenACC V&V suite's Fortran tests in OpenACC 2.0 scope against accsim and print a pass
# table (issue 16): conformance/run-vv.sh with VV_LANG=fortran (see there for the arguments).
#
#   conformance/run-vv-fortran.sh SUITE_CHECKOUT [ACCSIM_BINARY] [-- extra accsim run flags]
VV_LANG=fortran exec "$(dirname "$0")/run-vv.sh" "$@"
