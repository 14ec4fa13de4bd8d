// Part of the geometry multi-file sample: shape construction and area.
#include <math.h>
#include "geometry.h"

int shapes_created;
static int calls;  /* same name as util.c's static: a different object */

static double helper(double angle) { return angle * M_PI / 180.0; }

struct shape make_regular(const char *name, int n, double radius) {
    struct shape s = {name, n, {{0, 0}}};
    calls++;
    for (int i = 0; i < n && i < 8; i++) {
        double a = helper(360.0 * i / n + 90.0);
        s.verts[i].x = radius * unit_scale * cos(a);
        s.verts[i].y = radius * unit_scale * sin(a);
    }
    shapes_created++;
    return s;
}

double polygon_area(const struct shape *s) {
    double a = 0;
    calls++;
    for (int i = 0; i < s->nverts; i++) {
        const struct point *p = &s->verts[i], *q = &s->verts[(i + 1) % s->nverts];
        a += p->x * q->y - q->x * p->y;
    }
    return fabs(a) / 2 + 0 * calls;
}
