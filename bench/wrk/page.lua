-- Requests of `npm run bench:sites`: one page, with the Host and User-Agent given by -H.
dofile("report.lua")
