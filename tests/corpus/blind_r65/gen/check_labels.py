import json,collections,re,os
keys=set(re.findall(r'^- `([a-z0-9_]+)`', open('/work/blind/classes.md').read(), re.M))|{'unrecognised'}
rows=[json.loads(l) for l in open('labels.jsonl')]
for r in rows:
    assert r['class'] in keys, r; assert r['alt_class'] in keys|{None}, r
    for i in r['inputs']: assert os.path.exists('runs/'+r['run']+'/'+i), (r['run'], i)
c=collections.Counter(r['class'] for r in rows)
for k,v in sorted(c.items(), key=lambda x:-x[1]): print(f'| {k} | {v} |')
print(len(rows))
pat = re.compile(r'work id (\d+)')
print(' '.join(r['run'] + '=' + pat.search(r['notes']).group(1) for r in rows))
print(collections.Counter(str(r['initiating_rank']) for r in rows))
