/* GraspIt's wrench-space hull, on wrenches Clasp computed (issue 32; parity.sh). Reads 6-D
 * points, one "fx fy fz tx ty tz" a line, on stdin; builds their hull with the qhull GraspIt
 * links and the options its gws.cpp passes (`Pp n Qx QJ C-0.0001`: input joggled, facets
 * merged); prints one JSON object: the points, and either the hull's volume (qhull's total)
 * and epsilon as GraspIt's L1 quality reads them (the smallest distance from the origin to a
 * facet, -1 when the origin is not inside every facet), or that qhull failed (GraspIt then
 * reports epsilon -1 and volume 0). Built in GraspIt's chroot against its libqhull. */
#include <stdio.h>
#include <stdlib.h>

#include "qhull_a.h"

enum { MOST_POINTS = 100000 };

static coordT points[6 * MOST_POINTS];

int main(void)
{
  int count = 0;
  while (count < MOST_POINTS) {
    coordT *p = &points[6 * count];
    if (scanf("%lf %lf %lf %lf %lf %lf", p, p + 1, p + 2, p + 3, p + 4, p + 5) != 6) {
      break;
    }
    count++;
  }
  char options[] = "qhull Pp n Qx QJ C-0.0001";
  int curlong, totlong;
  qh_init_A(NULL, stderr, stderr, 0, NULL);
  if (setjmp(qh errexit)) {
    printf("{\"points\": %d, \"failed\": true}\n", count);
    return 0;
  }
  qh_initflags(options);
  qh_init_B(points, count, 6, False);
  qh_qhull();
  qh_check_output();
  qh_getarea(qh facet_list);
  double epsilon = 1e300;
  facetT *facet;
  FORALLfacets {
    if (facet->offset > 0) {
      epsilon = -1;
      break;
    }
    if (-facet->offset < epsilon) {
      epsilon = -facet->offset;
    }
  }
  printf("{\"points\": %d, \"failed\": false, \"volume\": %.17g, \"epsilon\": %.17g}\n", count,
         qh totvol, epsilon);
  qh NOerrexit = True;
  qh_freeqhull(!qh_ALL);
  qh_memfreeshort(&curlong, &totlong);
  return 0;
}
