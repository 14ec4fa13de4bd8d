// Issue 17 (PGI 1.3 limits): 1.3 runs every asynchronous activity in the order the host
// encounters it, whatever its handle ("Two asynchronous activities will be processed by the
// auxiliary thread in the order in which the host process encounters them", PGI Accelerator 1.3
// §2.3.1.2, §2.7.1.1). The update on handle h2 copies what the region on handle h1 computed, and
// waiting for h2 is enough. In 2.0 two queues are unordered; accsim's 1.3 translation puts
// `wait async(h2)` before the update, so the program stays correct under any schedule.
// accsim-flags: --dialect pgi-1.3 --schedule seed:0
#include <stdio.h>

#define N 512

int main(void) {
    static float v[N];
    int h1 = 1, h2 = 2;
#pragma acc data region local(v)
    {
#pragma acc region async(h1)
        {
            for (int i = 0; i < N; i++)
                v[i] = 0.25f * i;
        }
#pragma acc update host(v) async(h2)
#pragma acc wait(h2)
        printf("v[4] = %.2f, v[N-1] = %.2f\n", v[4], v[N - 1]);
    }
    return 0;
}
