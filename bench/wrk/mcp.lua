-- Requests of `npm run bench:mcp`: the same read of one project, as a REST call or as an MCP tool
-- call (get_project), or the projects list (list), with the credential given by -H. Arguments
-- after `--`: mode (rest, mcp, mcp-2026 or list), project id. mcp-2026 is the tool call of the
-- 2026 revision (its headers and _meta envelope).
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
  if mode == "mcp-2026" then
    meta = ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}'
  end
  local body = '{"jsonrpc":"2.0","id":' .. id .. ',"method":"tools/call","params":{"name":"get_project","arguments":{"project_id":"' .. project .. '"}' .. meta .. '}}'
  -- wrk.format replaces the -H headers when given a table: the key is copied in.
  local headers = {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
    ["MCP-Protocol-Version"] = "2025-06-18",
  }
  if mode == "mcp-2026" then
    headers["MCP-Protocol-Version"] = "2026-07-28"
    headers["Mcp-Method"] = "tools/call"
    headers["Mcp-Name"] = "get_project"
  end
  for name, value in pairs(wrk.headers) do headers[name] = value end
  return wrk.format("POST", "/api/mcp", headers, body)
end
