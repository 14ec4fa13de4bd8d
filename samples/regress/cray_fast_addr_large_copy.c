// Issue 17 (Cray CCE acc_model, seeds/003): under CCE's default `fast_addr` ("Attempt to use 32
// bit integers in all addressing … may result in incorrect behavior for some codes") a device
// copy of 2 GiB or more cannot be addressed correctly: `check --cray` warns at the clause,
// before the copy is made. (The run's memory limit then stops the program: this file is the
// warning's test, not a program to run to its end.)
// accsim-flags: --cray --max-memory 3000000000
// expect-exit: 4
// expect-stderr: memory
// check: skip
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    size_t n = (size_t)1 << 31;
    char *bytes = calloc(n, 1);
    if (!bytes)
        return 1;
    #pragma acc data create(bytes[0:n])
    {
        #pragma acc parallel loop
        for (size_t i = 0; i < n; i += 1 << 20)
            bytes[i] = 1;
    }
    printf("%d\n", bytes[0]);
    free(bytes);
    return 0;
}
