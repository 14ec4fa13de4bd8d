/* GPU fault injection (issue 14), case `oom-exhausted`: 8 GiB device blocks until the card is
 * full; the allocation that does not fit fails (the earlier ones are freed at exit). */
#include <stdio.h>
#include <openacc.h>

int main(void) {
    void *blocks[128];
    int n = 0;
    for (; n < 128; n++) {
        blocks[n] = acc_malloc((size_t)8 << 30);
        if (!blocks[n])
            break;
    }
    printf("%d blocks of 8 GiB\n", n);
    for (int i = 0; i < n; i++)
        acc_free(blocks[i]);
    return 0;
}
