-- Requests of `npm run bench:mcp`: the same read of one project, as a REST call or as an MCP tool
-- call (get_project), or the projects list (list), with the credential given by -H. Arguments
-- after `--`: mode (rest, mcp, mcp-sdk or list), project id. mcp-sdk is the same tool call with
-- an empty _meta, which the server hands to the SDK's own handler (src/mcp/tool-call.ts).
dofile("report.lua")

local mode, project
local id = 0

function init(args)
  mode, project = args[1], args[2]
end

function request()
  if mode == "rest" then
    return wrk.format("GET", "/api/v1/projects/" .. project)
  end
  if mode == "list" then
    return wrk.format("GET", "/api/v1/projects?limit=1")
  end
  id = id + 1
  local meta = ""
  if mode == "mcp-sdk" then meta = ',"_meta":{}' end
  local body = '{"jsonrpc":"2.0","id":' .. id .. ',"method":"tools/call","params":{"name":"get_project","arguments":{"project_id":"' .. project .. '"}' .. meta .. '}}'
  -- wrk.format replaces the -H headers when given a table: the key is copied in.
  local headers = {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
    ["MCP-Protocol-Version"] = "2025-06-18",
  }
  for name, value in pairs(wrk.headers) do headers[name] = value end
  return wrk.format("POST", "/api/mcp", headers, body)
end
