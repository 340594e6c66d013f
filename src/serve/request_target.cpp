#include "request_target.hpp"

#include <uriparser/Uri.h>

namespace luxel::serve {
namespace {

std::string unescaped(std::string text, bool plusToSpace) {
    if (text.empty()) return text;
    // In place: the result is never longer. uriparser stops at the first NUL it writes (%00), which is where a
    // C string ends too; the rest of the text is dropped with it.
    const char* end = uriUnescapeInPlaceExA(text.data(), plusToSpace ? URI_TRUE : URI_FALSE, URI_BR_DONT_TOUCH);
    text.resize(size_t(end - text.data()));
    return text;
}

}  // namespace

RequestTarget parseRequestTarget(const std::string& target) {
    RequestTarget out;
    const size_t question = target.find('?');
    out.path = unescaped(target.substr(0, question), false);
    if (question == std::string::npos || question + 1 == target.size()) return out;
    UriQueryListA* list = nullptr;
    const char* first = target.data() + question + 1;
    if (uriDissectQueryMallocExA(&list, nullptr, first, target.data() + target.size(), URI_TRUE, URI_BR_DONT_TOUCH) !=
        URI_SUCCESS)
        return out;
    for (const UriQueryListA* item = list; item; item = item->next)
        if (item->key && *item->key) out.params.emplace(item->key, item->value ? item->value : "");
    uriFreeQueryListA(list);
    return out;
}

}  // namespace luxel::serve
