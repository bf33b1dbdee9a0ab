# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# GPUSSIM_BACKEND(NAME, VAR, TITLE, DETECT, REQUIREMENT)
# ------------------------------------------------------
# One GPU backend of configure.ac: --enable-NAME / --disable-NAME (default:
# auto-detected). DETECT runs unless the backend is disabled and sets
# have_VAR=yes when everything the backend needs is there. --enable-NAME
# then makes a missing toolchain an error naming REQUIREMENT. Defines
# HAVE_VAR (uppercase, 0 or 1) in config.h and the automake conditional of
# the same name.
AC_DEFUN([GPUSSIM_BACKEND], [
AC_ARG_ENABLE([$1], [AS_HELP_STRING([--enable-$1], [$3 backend (default: auto)])],
              [], [enable_$2=auto])
have_$2=no
AS_IF([test "x$enable_$2" != xno], [
$4
    AS_IF([test $have_$2 = no && test "x$enable_$2" = xyes],
          [AC_MSG_ERROR([--enable-$1: $5])])
])
AM_CONDITIONAL(m4_toupper([HAVE_$2]), [test $have_$2 = yes])
AS_IF([test $have_$2 = yes], [AC_DEFINE(m4_toupper([HAVE_$2]), [1], [$3 backend])],
      [AC_DEFINE(m4_toupper([HAVE_$2]), [0], [$3 backend])])
])
