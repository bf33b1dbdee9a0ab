/* Each public header compiles alone as C11 with -pedantic -Werror. */
#include "gpussim/gpussim.h"
#include "gpussim/gpussim_cuda.h"

int main(void)
{
    struct gpussim_params p;
    gpussim_default_params(&p);
    return p.metrics == GPUSSIM_METRIC_ALL ? 0 : 1;
}
