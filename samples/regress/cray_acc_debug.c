// Issue 17, Cray CCE (CCE man page, CRAY_ACC_DEBUG and "CRAY_ACC_DEBUG Output Routines"): with
// CRAY_ACC_DEBUG=2 the runtime comments on stderr, prefixed "ACC:", on every launch and wait
// (level 1) and every allocation, transfer and release with the variable's name and size (level
// 2); cray_acc_set_debug_global_prefix/_level change the prefix and the level while the program
// runs, and the get routines give back the settings to restore.
// accsim-env: CRAY_ACC_DEBUG=2
// expect-stderr: ACC:   Create 'a' (400 bytes) from samples/regress/cray_acc_debug.c:18
// expect-stderr: ACC:   Transfer 'a' to acc (400 bytes) from samples/regress/cray_acc_debug.c:18
// expect-stderr: ACC: Execute kernel main$acc20 blocks:
// expect-stderr: PE0:   Share 'a' (present: host
// expect-stderr: PE0: Wait async(1) from samples/regress/cray_acc_debug.c:29
// expect-stderr: ACC:   Transfer 'b' to host (400 bytes) from samples/regress/cray_acc_debug.c:18
#include <stdio.h>
#include <openacc.h>
int main(void) {
    float a[100], b[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma acc data copyin(a) copyout(b)
    {
#pragma acc parallel loop present(a, b)
        for (int i = 0; i < 100; i++) b[i] = a[i] * 2;
        int old = cray_acc_get_debug_global_level();
        char *prefix = cray_acc_get_debug_global_prefix();
        cray_acc_set_debug_global_prefix("PE0:");
        cray_acc_set_debug_global_level(3);
        printf("level was %d, prefix was %s; now %d\n", old, prefix, cray_acc_get_debug_thread_level());
#pragma acc parallel loop present(a, b) async(1)
        for (int i = 0; i < 100; i++) b[i] += 1;
#pragma acc wait(1)
        cray_acc_set_debug_global_level(old);
        cray_acc_set_debug_global_prefix(prefix);
    }
    printf("b[99] = %g\n", b[99]);
    return 0;
}
