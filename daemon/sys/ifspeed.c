/* SPDX-License-Identifier: ISC */
/*
 * ifspeed.c -- an interface's link speed from sysfs (ethtool's number).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sys/ifspeed.h"

uint64_t
ifspeed_bps(const char *ifname)
{
	char path[96], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", ifname);
	if ((f = fopen(path, "re")) != NULL) {
		if (fgets(buf, sizeof(buf), f) != NULL)
			v = strtol(buf, NULL, 10);
		fclose(f);
	}
	return (v > 0 ? (uint64_t)v * 1000000ull : IFSPEED_DEFAULT_BPS);
}
