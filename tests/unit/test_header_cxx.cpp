/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
// Each public header compiles alone as C++11 with -pedantic -Werror.
#include "gpussim/gpussim.h"
#include "gpussim/gpussim_cuda.h"
#include "gpussim/gpussim_log.h"
#if defined(__has_include)
#if __has_include(<vulkan/vulkan.h>)
#include "gpussim/gpussim_vulkan.h"
#endif
#endif

int main()
{
    gpussim_params p;
    gpussim_default_params(&p);
    return p.metrics == 0 && p.ms_ssim_options == 0 ? 0 : 1;
}
