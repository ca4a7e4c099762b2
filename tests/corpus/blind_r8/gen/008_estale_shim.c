// Simulates an NFS server that lost the export: renames into the checkpoint dir fail with ESTALE.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <stdio.h>
static int stale(const char *p) { return p && strstr(p, "/nfs-ckpt/") && strstr(p, "step_0000060.pt"); }
int rename(const char *a, const char *b) {
  static int (*real)(const char*, const char*); if (!real) real = dlsym(RTLD_NEXT, "rename");
  if (stale(b)) { errno = ESTALE; return -1; } return real(a, b); }
int renameat(int fa, const char *a, int fb, const char *b) {
  static int (*real)(int, const char*, int, const char*); if (!real) real = dlsym(RTLD_NEXT, "renameat");
  if (stale(b)) { errno = ESTALE; return -1; } return real(fa, a, fb, b); }
