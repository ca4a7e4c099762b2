#include <stddef.h>
/* fused bias+gelu-ish (tanh-free approximation) on fp16 activations */
void fused_bias_act_fp16(_Float16 *x, const _Float16 *b, size_t n, size_t d) {
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++) {
            _Float16 v = x[i*d+j] + b[j];
            x[i*d+j] = v > (_Float16)0 ? v : v * (_Float16)0.01f;
        }
}
