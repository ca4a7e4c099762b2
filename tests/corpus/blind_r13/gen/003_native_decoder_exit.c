/* rawdec: minimal decoder for the packed sensor-record format (vendored C library) */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#define MAGIC 0x5253u
int rawdec_decode(const uint8_t *buf, long off, float *out, int nfeat) {
    uint16_t magic; uint16_t n;
    memcpy(&magic, buf + off, 2); memcpy(&n, buf + off + 2, 2);
    if (magic != MAGIC) {
        fprintf(stderr, "rawdec: fatal: bad record magic 0x%04x at offset %ld\n", magic, off);
        exit(3);
    }
    if (n != nfeat) { fprintf(stderr, "rawdec: fatal: record has %u features, expected %d\n", n, nfeat); exit(3); }
    const int16_t *v = (const int16_t *)(buf + off + 4);
    for (int i = 0; i < n; i++) out[i] = v[i] / 1024.0f;
    return 4 + 2 * n;
}
