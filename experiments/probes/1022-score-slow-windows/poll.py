# poll.py URL N: read URL every 100 ms, N times; print CLOCK_MONOTONIC seconds and the body.
import sys, time, urllib.request
url, n = sys.argv[1], int(sys.argv[2])
nxt = time.monotonic()
for _ in range(n):
    t = time.clock_gettime(time.CLOCK_MONOTONIC)
    body = urllib.request.urlopen(url).read().decode().strip()
    print(f"{t:.6f} {body}", flush=True)
    nxt += 0.1
    time.sleep(max(0, nxt - time.monotonic()))
