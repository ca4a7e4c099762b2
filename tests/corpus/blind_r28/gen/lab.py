import json,sys
# usage: lab.py run class rank alt notes inputs...
run,cls,rank,alt,notes,*inputs=sys.argv[1:]
rec={"run":run,"inputs":inputs,"class":cls,"initiating_rank":None if rank=="null" else int(rank),"alt_class":None if alt=="null" else alt,"notes":notes}
with open("/work/blind/r28/gen/labels_draft.jsonl","a") as f: f.write(json.dumps(rec)+"\n")
print(rec)
