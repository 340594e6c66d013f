-- The same thumbnail again and again (PATH): every answer from the image cache.
dofile(os.getenv("LUXEL_WRK_DIR") .. "/wrk_report.lua")
local path = os.getenv("HIT_PATH")
request = function() return wrk.format("GET", path) end
