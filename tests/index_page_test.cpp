// The batch index page: text from a manifest is escaped, links are relative and cannot leave the output
// folder or run script, failed maps show their error, and a manifest missing anything still renders.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "luxel/batch/index_page.hpp"
#include "luxel/util/error.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json sampleManifest() {
    return json::parse(R"({
      "luxel": "0.1.0",
      "maps": [
        { "name": "oa_dm1", "source": "/usr/share/games/openarena/baseoa/pak0.pk3:maps/oa_dm1.bsp",
          "format": "Quake 3 IBSP 46", "status": "ok", "warnings": ["3 materials missing"],
          "views": [ { "name": "thumb", "output": "oa_dm1/thumb.png", "width": 512, "height": 288, "mode": "lit",
                       "camera": {"asked": "best", "used": "best", "position": [1,2,3], "angles": [10,45,0], "fov": 90},
                       "ms": 12.5 },
                     { "name": "overview", "output": "oa_dm1/overview.png", "width": 1920, "height": 1080 } ],
          "ms": {"total": 80.1} },
        { "name": "broken", "source": "maps/broken.bsp", "status": "failed",
          "error": "broken.bsp: lump 13 (faces) at byte 1024: count 9000 past the end" }
      ],
      "summary": { "maps": 2, "ok": 1, "failed": 1, "views": 2, "seconds": 9.5 },
      "sheets": ["sheet.png", "sheet-2.png"] })");
}

std::vector<std::string> attributeValues(const std::string& html, const std::string& attribute) {
    std::vector<std::string> values;
    std::string key = " " + attribute + "=\"";
    for (size_t at = html.find(key); at != std::string::npos; at = html.find(key, at + 1)) {
        size_t begin = at + key.size(), end = html.find('"', begin);
        REQUIRE(end != std::string::npos);
        values.push_back(html.substr(begin, end - begin));
    }
    return values;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("Index page shows the summary, a card per map, thumbnails linking to their images", "[sheet]") {
    std::string html = renderIndexPage(sampleManifest());
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("<meta charset=\"utf-8\">") != std::string::npos);
    CHECK(html.find("2 maps \xC2\xB7 1 ok") != std::string::npos);
    CHECK(html.find("9.5 s") != std::string::npos);
    CHECK(html.find("<a class=\"thumb\" href=\"oa_dm1/thumb.png\"><img loading=\"lazy\" src=\"oa_dm1/thumb.png\"") !=
          std::string::npos);
    CHECK(html.find("width=\"512\" height=\"288\"") != std::string::npos);
    CHECK(html.find("<a href=\"oa_dm1/overview.png\"") != std::string::npos);
    CHECK(html.find("Quake 3 IBSP 46 \xC2\xB7 512\xC3\x97" "288 \xC2\xB7 80 ms") != std::string::npos);
    CHECK(html.find("3 materials missing") != std::string::npos);
    CHECK(html.find("<a href=\"sheet-2.png\">sheet-2.png</a>") != std::string::npos);
    // Self-contained: no scripts, nothing fetched from elsewhere.
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("http") == std::string::npos);
    CHECK(html.find("//") == std::string::npos);
    CHECK(renderIndexPage(sampleManifest()) == html);
}

TEST_CASE("Index page shows a failed map's error in red and no image", "[sheet]") {
    std::string html = renderIndexPage(sampleManifest());
    size_t card = html.find("<article class=\"card failed\" id=\"map-1\">");
    REQUIRE(card != std::string::npos);
    size_t end = html.find("</article>", card);
    std::string failed = html.substr(card, end - card);
    CHECK(failed.find("<p class=\"error\">broken.bsp: lump 13 (faces) at byte 1024: count 9000 past the end</p>") !=
          std::string::npos);
    CHECK(failed.find("<img") == std::string::npos);
    CHECK(failed.find("FAILED") != std::string::npos);
    CHECK(html.find(".error{") != std::string::npos);
    CHECK(html.find("color:#ff6b6b") != std::string::npos);
    // The header lists it, linking to its card.
    CHECK(html.find("<a class=\"bad\" href=\"#map-1\">broken</a>") != std::string::npos);
}

TEST_CASE("Index page escapes hostile names and errors and keeps links inside the folder", "[sheet]") {
    json m = sampleManifest();
    json& evil = m["maps"][0];
    evil["name"] = "<script>alert(\"x\")</script>&'";
    evil["format"] = "<b>bold</b>";
    evil["warnings"] = json::array({"<img src=x onerror=alert(1)>"});
    evil["views"][0]["output"] = "a b/\"><script>x</script>.png";
    evil["views"][1]["output"] = "../../etc/passwd";
    evil["views"].push_back({{"name", "<i>js</i>"}, {"output", "javascript:alert(1)"}});
    evil["views"].push_back({{"name", "abs"}, {"output", "/etc/passwd"}});
    evil["views"].push_back({{"name", "ctl"}, {"output", "x\ny.png"}});
    m["maps"][1]["error"] = "bad \"quote\" & <tag> \xff end";
    m["sheets"] = json::array({"../sheet.png", "ok sheet.png"});

    std::string html = renderIndexPage(m);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("<b>") == std::string::npos);
    CHECK(html.find("<i>") == std::string::npos);
    CHECK(html.find("<img src=x") == std::string::npos);
    CHECK(html.find("javascript:") == std::string::npos);
    CHECK(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;") != std::string::npos);
    CHECK(html.find("bad &quot;quote&quot; &amp; &lt;tag&gt; \xEF\xBF\xBD end") != std::string::npos);
    // The one usable hostile path is percent-encoded; the others get no link.
    CHECK(html.find("href=\"a%20b/%22%3E%3Cscript%3Ex%3C/script%3E.png\"") != std::string::npos);
    CHECK(html.find("<a href=\"ok%20sheet.png\">ok sheet.png</a>") != std::string::npos);
    for (const char* attr : {"href", "src"}) {
        for (const std::string& v : attributeValues(html, attr)) {
            INFO(attr << "=" << v);
            CHECK(v.find("..") == std::string::npos);
            CHECK(v.find(':') == std::string::npos);
            CHECK(v.find('<') == std::string::npos);
            CHECK(v.find('\n') == std::string::npos);
            bool relative = !v.empty() && v.front() != '/' && v.front() != '\\';
            CHECK(relative);
        }
    }
    CHECK(html.find("passwd") == std::string::npos);
}

TEST_CASE("Index page tolerates a manifest missing fields or holding wrong types", "[sheet]") {
    CHECK_NOTHROW(renderIndexPage(json()));
    CHECK_NOTHROW(renderIndexPage(json::array({1, 2})));
    json m = json::parse(R"({ "maps": [ {}, {"name": 5, "views": "x", "status": "ok"},
                                        {"name": "v", "views": [ {"output": 3, "width": "big"}, 7 ]},
                                        {"error": "no status but an error"} ],
                              "summary": "none", "sheets": [1, null] })");
    std::string html;
    REQUIRE_NOTHROW(html = renderIndexPage(m));
    CHECK(html.find("4 maps \xC2\xB7 3 ok \xC2\xB7 ") != std::string::npos);  // counted from the maps
    CHECK(html.find("id=\"map-3\"") != std::string::npos);
    CHECK(html.find("no status but an error") != std::string::npos);
    CHECK(html.find("<img") == std::string::npos);
}

TEST_CASE("Index page is written atomically with paths relative to its folder", "[sheet]") {
    auto dir = luxel::test::tempDir("index-page");
    json m = sampleManifest();
    m["maps"][0]["views"][1]["output"] = (fs::path(dir) / "oa_dm1" / "overview.png").string();  // absolute, inside
    m["sheets"] = json::array({(fs::path(dir) / "sheet.png").string(), "/elsewhere/sheet.png"});
    writeIndexPage(m, dir);
    std::string html = slurp(dir + "/index.html");
    CHECK(html.find("<a href=\"oa_dm1/overview.png\"") != std::string::npos);
    CHECK(html.find("<a href=\"sheet.png\">sheet.png</a>") != std::string::npos);
    CHECK(html.find("elsewhere") == std::string::npos);
    CHECK(html.find(dir) == std::string::npos);

    writeIndexPage(m, dir, "other.html");
    CHECK(slurp(dir + "/other.html") == html);
    size_t entries = 0;
    for (const auto& e : fs::directory_iterator(dir)) entries += e.is_regular_file() ? 1 : 0;
    CHECK(entries == 2);
    CHECK_THROWS_AS(writeIndexPage(m, dir + "/missing"), UsageError);
}
