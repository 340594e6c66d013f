#pragma once
// The request target of an HTTP request line split into its path and query, percent-decoded by uriparser
// (RFC 3986 unescaping; in the query '+' is a space, as HTML forms send it).
#include <map>
#include <string>

namespace luxel::serve {

struct RequestTarget {
    std::string path;                                // decoded; '+' kept
    std::multimap<std::string, std::string> params;  // decoded; "key" without '=' has the value ""; empty keys dropped
};

RequestTarget parseRequestTarget(const std::string& target);

}  // namespace luxel::serve
