/// The Lua script that applies `ProviderGuard`'s rules to one provider's state in Redis, in
/// one atomic step per call (Redis runs a script alone), so replicas racing for the last token
/// or the one probe slot are decided exactly as the threads of one process are.
///
/// It is a line-by-line port of the four machines (`Cooldown`, `CircuitBreaker`,
/// `TokenBucket`, `RetryBudget`) as `ProviderGuard` composes them; `StewardScriptParityTests`
/// runs the same sequences through both on one clock and compares every answer.
///
/// - Clock: Redis's own (`TIME`), so every replica reads the same time whatever its monotonic
///   clock says. `ARGV[2]` may pin it instead (tests only; empty in production).
/// - State: one hash (`KEYS[1]`, see `StewardKeyLayout`), fields:
///   `cs` cooldown 0 clear / 1 cooling / 2 probing, `cu` cooling until, `cp` probing since,
///   `ck` doubling streak; `bs` breaker 0 closed / 1 open / 2 half-open, `bf` consecutive
///   failures, `bu` open until, `bp` probe since (empty: none), `bo` last opening's length;
///   `tk` tokens, `tu` when they were counted; `rw` retry window `second,requests,retries;…`.
///   Times are Redis seconds (Unix, microsecond precision). Each write renews the key's TTL.
///   Every field is read as untrusted: one that is not a finite number of its kind is dropped,
///   and each is clamped to what the machines produce (tokens 0…burst, less the queue's reservations, cooling until at most
///   now + `maxCooldown`, open until at most now + the breaker's longest opening, probe times
///   not in the future), so no hash can block a provider past the caps.
/// - Arguments and reply: `StewardScriptCall` and `StewardScriptReply`.
enum StewardScript {
    static let source = #"""
    local key = KEYS[1]
    local op = ARGV[1]
    local now = tonumber(ARGV[2])
    if now == nil then
      local t = redis.call('TIME')
      now = tonumber(t[1]) + tonumber(t[2]) / 1000000
    end
    local rate = tonumber(ARGV[3]) or 0
    local burst = tonumber(ARGV[4]) or 1
    local maxCooldown = tonumber(ARGV[5]) or 0
    local threshold = tonumber(ARGV[6]) or 1
    local percent = tonumber(ARGV[7]) or 0
    local stale = tonumber(ARGV[8]) or 1
    local firstOpen = tonumber(ARGV[9]) or 1
    local maxOpen = tonumber(ARGV[10]) or 60
    local window = tonumber(ARGV[11]) or 10
    local ttl = tonumber(ARGV[12]) or 60000
    local maxQueue = math.max(0, tonumber(ARGV[13]) or 0)
    if op ~= 'admit' and op ~= 'abandon' and op ~= 'record' and op ~= 'retry' then
      return redis.error_reply('ERR almanac steward script: unknown operation')
    end
    local outcome = ARGV[16]
    if op == 'record' and outcome ~= 'stop' and outcome ~= 'failure' and outcome ~= 'answered' and outcome ~= 'cancelled' then
      return redis.error_reply('ERR almanac steward script: unknown outcome')
    end

    local function fmt(x) return string.format('%.17g', x) end
    local s = {}
    local raw = redis.call('HGETALL', key)
    for i = 1, #raw, 2 do s[raw[i]] = raw[i + 1] end
    -- The hash is untrusted (anyone who can write to Redis can write it): a field that is not
    -- a finite number, or not one of its state's values, is dropped (read as absent); numbers
    -- are clamped to what the machines themselves can produce, so no value held there blocks
    -- a provider for longer than the configured caps.
    local function num(text)
      local x = tonumber(text or '')
      if x == nil or x ~= x or x == math.huge or x == -math.huge then return nil end
      return x
    end
    local function clamp(x, lo, hi) return math.min(hi, math.max(lo, x)) end
    local function phase(text)
      local x = num(text)
      if x == 0 or x == 1 or x == 2 then return x end
      return 0
    end
    local cs = phase(s.cs)
    local cu = clamp(num(s.cu) or 0, 0, now + maxCooldown)
    local cp = clamp(num(s.cp) or 0, 0, now)
    local ck = math.floor(clamp(num(s.ck) or 0, 0, 64))
    local bs = phase(s.bs)
    local bf = math.floor(clamp(num(s.bf) or 0, 0, threshold))
    local bu = clamp(num(s.bu) or 0, 0, now + maxOpen)
    local bp = num(s.bp)
    if bp ~= nil then bp = clamp(bp, 0, now) end
    local bo = clamp(num(s.bo) or 0, 0, maxOpen)
    -- Tokens go below 0 only by queued requests' reservations: at most upstream.maxQueueMs
    -- of refill.
    local tk = clamp(num(s.tk) or burst, -maxQueue * rate, burst)
    local tu = clamp(num(s.tu) or now, 0, now)

    -- RetryBudget: one-second buckets, those older than the window dropped.
    local second = math.floor(now)
    local win = {}
    for sec, q, r in string.gmatch(s.rw or '', '(%-?%d+),(%d+),(%d+)') do
      sec, q, r = num(sec), num(q), num(r)
      if sec ~= nil and q ~= nil and r ~= nil and sec <= second and second - sec < window then
        q = clamp(q, 0, 1e9)
        win[#win + 1] = {sec, q, clamp(r, 0, q)}
      end
    end
    local function recordRequest(isRetry)
      local last = win[#win]
      if last and last[1] == second then
        last[2] = last[2] + 1
        if isRetry then last[3] = last[3] + 1 end
      else
        win[#win + 1] = {second, 1, isRetry and 1 or 0}
      end
    end
    local function counts()
      local q, r = 0, 0
      for _, e in ipairs(win) do q = q + e[2]; r = r + e[3] end
      return q, r
    end
    local function retryAllowed(inFlight, minInFlight)
      if inFlight < minInFlight then return true end
      local q, r = counts()
      return (r + 1) <= q * percent / 100
    end

    -- Cooldown and CircuitBreaker admit alike: 0 lets everything through; 1 stops until
    -- `openUntil`, then lets one probe through; 2 (a probe out) stops the rest until the probe
    -- reports, or is presumed lost after `stale` seconds. Returns go, probe, seconds to wait.
    local function gateCheck(state, openUntil, probedAt, probeWait)
      if state == 0 then return true, false, 0 end
      if state == 1 then
        if now >= openUntil then return true, true, 0 end
        return false, false, openUntil - now
      end
      if probedAt == nil or now - probedAt > stale then return true, true, 0 end
      return false, false, probeWait
    end

    -- Cooldown.
    local function cooldownCheck() return gateCheck(cs, cu, cp, 1) end
    local function doubling(e)
      local seconds = 1
      for _ = 1, math.min(math.max(0, e), 30) do seconds = seconds * 2 end
      return seconds
    end
    local function cooldownStop(retryAfter)
      local seconds
      if retryAfter ~= nil then
        seconds = math.min(math.max(0, retryAfter), maxCooldown)
      elseif cs == 1 then
        seconds = math.min(doubling(math.max(0, ck - 1)), maxCooldown)
      else
        seconds = math.min(doubling(ck), maxCooldown)
      end
      if cs == 1 then
        cu = math.max(cu, now + seconds)
        return false
      end
      local entering = cs == 0
      if retryAfter == nil then ck = ck + 1 else ck = 0 end
      cs = 1
      cu = now + seconds
      return entering
    end
    local function cooldownProbeLost()
      if cs == 2 then cs = 1; cu = now end
    end

    -- CircuitBreaker.
    local function breakerCheck() return gateCheck(bs, bu, bp, firstOpen) end
    local function breakerRecord(failed, probe)
      if bs == 0 then
        if not failed then bf = 0; return nil end
        if bf + 1 < threshold then bf = bf + 1; return nil end
        bo = firstOpen; bs = 1; bu = now + bo; bf = 0
        return {'breakerOpened', fmt(bo), tostring(threshold)}
      elseif bs == 1 then
        return nil
      end
      if not probe then return nil end
      if failed then
        bo = math.min(maxOpen, math.max(firstOpen, bo * 2)); bs = 1; bu = now + bo
        return nil
      end
      bo = 0; bs = 0; bf = 0
      return {'breakerClosed'}
    end
    local function breakerProbeLost()
      if bs == 2 then bp = nil end
    end

    -- TokenBucket.
    local function refill()
      if now > tu then tk = math.min(burst, tk + (now - tu) * rate); tu = now end
    end
    local function take(maxWait, background)
      if rate <= 0 then return true, 0 end
      refill()
      if background then
        if tk >= 2 then tk = tk - 1; return true, 0 end
        return false, (2 - tk) / rate
      end
      local wait = 0
      if tk < 1 then wait = (1 - tk) / rate end
      if wait > math.max(0, maxWait) then return false, wait end
      tk = tk - 1
      return true, wait
    end

    local result = {}
    local write = true
    if op == 'admit' then
      local cgo, cprobe, cwait = cooldownCheck()
      local bgo, bprobe, bwait = breakerCheck()
      if not cgo then
        result = {'skipped', 'cooldown', fmt(cwait)}
      elseif not bgo then
        result = {'skipped', 'breaker', fmt(bwait)}
      else
        local granted, seconds = take(tonumber(ARGV[14]) or 0, ARGV[15] == '1')
        if not granted then
          result = {'skipped', 'budget', fmt(seconds)}
        else
          if cprobe then cs = 2; cp = now end
          if bprobe then bs = 2; bp = now end
          recordRequest(ARGV[16] == '1')
          result = {'admitted', cprobe and '1' or '0', bprobe and '1' or '0', fmt(seconds)}
        end
      end
    elseif op == 'abandon' then
      if rate > 0 then refill(); tk = math.min(burst, tk + 1) end
      if ARGV[14] == '1' then cooldownProbeLost() end
      if ARGV[15] == '1' then breakerProbeLost() end
    elseif op == 'record' then
      local cprobe = ARGV[14] == '1'
      local bprobe = ARGV[15] == '1'
      if outcome == 'cancelled' then
        if cprobe then cooldownProbeLost() end
        if bprobe then breakerProbeLost() end
      elseif outcome == 'stop' then
        if bprobe then breakerProbeLost() end
        if cooldownStop(tonumber(ARGV[17])) then
          result[1] = {'cooldownStarted', fmt(math.max(0, cu - now))}
        end
      else
        if cprobe and cs == 2 then
          cs = 0; ck = 0
          result[#result + 1] = {'cooldownEnded'}
        end
        local change = breakerRecord(outcome == 'failure', bprobe)
        if change ~= nil then result[#result + 1] = change end
      end
    else
      write = false
      result = {(cs == 0 and retryAllowed(tonumber(ARGV[14]) or 0, tonumber(ARGV[15]) or 3)) and '1' or '0'}
    end

    if write then
      local parts = {}
      for _, e in ipairs(win) do parts[#parts + 1] = string.format('%.0f,%d,%d', e[1], e[2], e[3]) end
      redis.call('HSET', key, 'cs', tostring(cs), 'cu', fmt(cu), 'cp', fmt(cp), 'ck', tostring(ck),
        'bs', tostring(bs), 'bf', tostring(bf), 'bu', fmt(bu), 'bp', bp and fmt(bp) or '', 'bo', fmt(bo),
        'tk', fmt(tk), 'tu', fmt(tu), 'rw', table.concat(parts, ';'))
      redis.call('PEXPIRE', key, ttl)
    end

    local tokens = burst
    if rate > 0 then tokens = math.min(burst, tk + math.max(0, now - tu) * rate) end
    local ages = {}
    for _, e in ipairs(win) do ages[#ages + 1] = string.format('%.0f,%d,%d', second - e[1], e[2], e[3]) end
    local cooling = 0
    if cs == 1 then cooling = math.max(0, cu - now) end
    local opened = 0
    if bs == 1 then opened = math.max(0, bu - now) end
    local failures = 0
    if bs == 0 then failures = bf end
    return {result, {tostring(cs), fmt(cooling), tostring(bs), tostring(failures), fmt(opened), fmt(tokens),
      fmt(now - second), table.concat(ages, ';')}}
    """#
}
