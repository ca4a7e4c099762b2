/* a per-bucket mean in native code, as a custom extension would do it */
int bucket_mean(int total, int count) { return total / count; }
