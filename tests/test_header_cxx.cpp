// Each public header compiles alone as C++11 with -pedantic -Werror.
#include "gpussim/gpussim.h"
#include "gpussim/gpussim_cuda.h"

int main()
{
    gpussim_params p;
    gpussim_default_params(&p);
    return p.metrics == GPUSSIM_METRIC_ALL ? 0 : 1;
}
