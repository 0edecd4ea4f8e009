-- Requests of `npm run bench` (bench/run.ts). Every request picks its key, record and page at
-- random from the fixtures the runner wrote to a Lua file, so no cache of any kind sees a
-- repeat it could have been tuned for.
-- Arguments after `--`: operation, fixtures file, tag (new for every round, so that the
-- emails and names written are new: a repeated email is a 400, an unchanged name no write).
dofile("report.lua")

local thread_count = 0
function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_id", thread_count)
end

local op, data, tag
local n = 0

function init(args)
  op, tag = args[1], args[3] .. "-" .. (thread_id or 0)
  data = dofile(args[2])
  math.randomseed(os.time() + 7919 * (thread_id or 0))
end

local function key_of(org)
  local keys = data.keys[org]
  return "Bearer " .. keys[math.random(#keys)]
end

local json = "application/json"

function request()
  n = n + 1
  if op == "get-client" then
    local i = math.random(#data.clients)
    return wrk.format("GET", "/api/v1/clients/" .. data.clients[i], { Authorization = key_of(data.client_org[i]) })
  elseif op == "list-projects" then
    -- Full pages only: every answer has 50 projects and needs the count as well.
    local org = math.random(#data.keys)
    local offset = math.random(0, data.projects_per_org[org] - 50)
    return wrk.format("GET", "/api/v1/projects?limit=50&offset=" .. offset, { Authorization = key_of(org) })
  elseif op == "create-client" then
    local body = '{"email":"c' .. tag .. "-" .. n .. '@bench.example","name":"Bench client ' .. n .. '","company":"Bench Ltd"}'
    return wrk.format("POST", "/api/v1/clients", { Authorization = key_of(math.random(#data.keys)), ["Content-Type"] = json }, body)
  elseif op == "update-project" then
    local i = math.random(#data.projects)
    local body = '{"name":"Bench site ' .. tag .. "-" .. n .. '"}'
    return wrk.format("PATCH", "/api/v1/projects/" .. data.projects[i], { Authorization = key_of(data.project_org[i]), ["Content-Type"] = json }, body)
  end
  error("unknown operation " .. tostring(op))
end
