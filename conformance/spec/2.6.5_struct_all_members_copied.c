// §2.6.5 restriction: "if a variable or array of struct or class type is specified, all the data
// members of the struct or class are allocated and copied".
#include <stdio.h>
struct particle { double x, y; int id; float w[3]; };
int main(void) {
    struct particle p = {1.0, 2.0, 7, {0.5f, 1.5f, 2.5f}};
#pragma acc parallel num_gangs(1) copy(p)
    {
        p.x += 10.0;
        p.y *= 3.0;
        p.id += 1;
        p.w[2] = p.w[0] + p.w[1];
    }
    printf("%.1f %.1f %d %.1f\n", p.x, p.y, p.id, p.w[2]);
    return 0;
}
