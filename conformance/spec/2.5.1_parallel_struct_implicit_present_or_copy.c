// §2.5.1: "An array or variable of aggregate data type referenced in the parallel construct that
// does not appear in a data clause ... will be treated as if it appeared in a present_or_copy
// clause". A struct assigned in the region is copied back.
#include <stdio.h>
struct stats { int count; double total; };
int main(void) {
    struct stats st = {0, 0.0};
#pragma acc parallel num_gangs(1)
    {
        st.count = 3;
        st.total = 4.5;
    }
    printf("count = %d total = %.1f\n", st.count, st.total);
    return 0;
}
