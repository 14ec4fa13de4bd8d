// §2.6.2: "When the program enters a procedure, it creates an implicit data region that has a
// lifetime of the procedure." Data a declare directive creates in a function (§2.10) is present
// during the call and gone after it returns.
#include <stdio.h>
#include <openacc.h>
static int *seen_buf;
static int present_in(void) {
    int buf[16];
#pragma acc declare create(buf)
    seen_buf = buf;
    return acc_is_present(buf, sizeof buf) != 0;
}
int main(void) {
    printf("during call: %d\n", present_in());
    printf("after return: %d\n", acc_is_present(seen_buf, 16 * sizeof(int)) != 0);
    return 0;
}
