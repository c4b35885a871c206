-- wrk's example pipelining script (examples/scripts/pipeline.lua), grown to
-- a depth of 16 requests per batch for experiment 026. wrk sends the
-- concatenated requests in one write and reads their 16 answers.
init = function(args)
   local r = {}
   for i = 1, 16 do
      r[i] = wrk.format(nil, string.format("/docs/d%02d", (i - 1) % 64))
   end
   req = table.concat(r)
end

request = function()
   return req
end
