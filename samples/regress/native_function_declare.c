// Issue 15 (native engine, second stage): a function-scope `declare` maps its data for the
// function's lifetime and releases it when the function returns (§2.13). The native engine
// leaves such a function to the interpreter, whose call path releases the data, also when
// the caller runs as native code; each call maps a fresh frame's array again (`--notify`
// shows the release; the engines test compares it on both engines).
// accsim-flags: --notify
// expect-stderr: free device data file=samples/regress/native_function_declare.c function=total line=10
#include <stdio.h>

static double total(int n) {
    double w[8];
#pragma acc declare create(w)
#pragma acc parallel loop
    for (int i = 0; i < 8; i++)
        w[i] = i * n;
#pragma acc update host(w)
    double s = 0.0;
    for (int i = 0; i < 8; i++)
        s += w[i];
    return s;
}

int main(void) {
    double s = 0.0;
    for (int k = 1; k <= 3; k++)
        s += total(k);
    printf("%.1f\n", s);
    return 0;
}
