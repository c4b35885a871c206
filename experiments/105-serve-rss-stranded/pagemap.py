import sys, re, struct
pid=int(sys.argv[1])
maps=open(f'/proc/{pid}/maps').read().splitlines()
pm=open(f'/proc/{pid}/pagemap','rb')
for l in maps:
    f=l.split()
    a,b=[int(x,16) for x in f[0].split('-')]
    if len(f)==5 and f[1]=='rw-p' and 0x10000000<a<0x7f0000000000:
        pm.seek((a>>12)*8); data=pm.read(((b-a)>>12)*8)
        res=[(struct.unpack_from('<Q',data,i*8)[0]>>63)&1 for i in range((b-a)>>12)]
        runs=[];i=0
        while i<len(res):
            if res[i]:
                j=i
                while j<len(res) and res[j]: j+=1
                runs.append((i*4,(j-i)*4)); i=j
            else: i+=1
        print(f'heap {f[0]} arena_off={(a%(64<<20))>>10}KiB size={(b-a)>>10}KiB resident={sum(r[1] for r in runs)}KiB runs(offKiB,lenKiB)={runs}')
