/* stale build of a fused-optimizer extension compiled against another torch: references a c10 symbol */
extern int _ZN3c104cuda9SetDeviceEi(int);
void *PyInit_fused_adam_ext(void) { _ZN3c104cuda9SetDeviceEi(0); return 0; }
