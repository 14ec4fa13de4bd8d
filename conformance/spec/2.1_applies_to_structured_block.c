// §2.1: "An OpenACC directive applies to the immediately following statement, structured block
// or loop." The parallel construct covers the whole braced block (both loops, one data region);
// the loop after the block is host code and sees the copied-back values.
#include <stdio.h>
int main(void) {
    int a[10], b[10];
    for (int i = 0; i < 10; i++) a[i] = i;
#pragma acc parallel copy(a, b)
    {
#pragma acc loop
        for (int i = 0; i < 10; i++) a[i] = a[i] * 2;
#pragma acc loop
        for (int i = 0; i < 10; i++) b[i] = i + 100;
    }
    for (int i = 0; i < 10; i++) a[i] += 1;
    printf("%d %d %d %d\n", a[0], a[9], b[0], b[9]);
    return 0;
}
