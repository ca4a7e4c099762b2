#include <string.h>
/* counts bytes of a sample; no NULL check (the bug) */
int collate_len(const char *s) { return (int)strlen(s); }
