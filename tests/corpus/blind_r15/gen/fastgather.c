#include <string.h>
#include <stddef.h>
/* out[k, :] = src[idx[k], :]  (no bounds checks: hot path) */
void gather_rows(const float *src, const long *idx, long n, long width, float *out) {
    for (long k = 0; k < n; k++) {
        memcpy(out + k * width, src + (size_t)idx[k] * (size_t)width, width * sizeof(float));
    }
}
