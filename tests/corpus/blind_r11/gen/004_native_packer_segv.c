/* fastpack: byte-level tokenizer + sequence packer used by the data pipeline (built on each node). */
#include <string.h>
#include <stdint.h>
static const char *VOCAB[128];
static int inited = 0;
static void init(void){ static char buf[128][2]; for(int i=32;i<127;i++){buf[i][0]=(char)i;buf[i][1]=0;VOCAB[i]=buf[i];} VOCAB[9]="\t"; VOCAB[10]="\n"; inited=1; }
/* encode bytes to ids; ids are vocab index * len(piece) (pieces are single chars here) */
int encode(const unsigned char *s, int n, int32_t *out){
    if(!inited) init();
    int k=0;
    for(int i=0;i<n;i++){
        const char *piece = VOCAB[s[i] & 0x7f];     /* high bytes folded: no bounds/NULL check */
        out[k++] = (int32_t)((s[i] & 0x7f) * (int)strlen(piece));
    }
    return k;
}
