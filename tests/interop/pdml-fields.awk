# SPDX-License-Identifier: ISC
# pdml-fields.awk -- tshark -T pdml on stdin -> "FRAME FIELD SHOW" lines for
# every visible named field of the protocols under test (eth, lldp, macc),
# in tshark's order.  Hidden fields (hide="yes") are aliases of visible ones.
# Anything of Wireshark's own "_ws." tree (malformed, expert info) is printed
# whatever protocol it sits in, so it can never match an expectation.
/<packet>/ { frame++ }
/<proto name="/ {
	match($0, /name="[^"]*"/)
	proto = substr($0, RSTART + 6, RLENGTH - 7)
	if (proto ~ /^_ws\./) print frame, proto, "(proto)"
}
/<field name="[^"]/ {
	match($0, /name="[^"]*"/)
	name = substr($0, RSTART + 6, RLENGTH - 7)
	if (name !~ /^_ws\./) {
		if (proto != "eth" && proto != "lldp" && proto != "macc") next
		if ($0 ~ /hide="yes"/) next
		# Derived from eth.dst/eth.src (address aliases, I/G and L/G bits).
		if (name ~ /^eth\.(addr|dst\.|src\.)/) next
	}
	show = ""
	if (match($0, / show="[^"]*"/))
		show = substr($0, RSTART + 7, RLENGTH - 8)
	gsub(/&quot;/, "\"", show); gsub(/&lt;/, "<", show)
	gsub(/&gt;/, ">", show); gsub(/&apos;/, "'", show)
	gsub(/&amp;/, "\\&", show)
	print frame, name, show
}
