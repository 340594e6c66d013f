// The --isolate workers' reply protocol (src/batch/worker_pool.hpp) against real child processes: shell scripts
// that read the map line on fd 3 and answer as a worker would, well or badly.
#include <catch2/catch.hpp>

#include <string>

#include "../src/batch/worker_pool.hpp"

using namespace luxel;
using namespace luxel::batch;

namespace {

// A worker that answers every map with `printf`'s FORMAT (written to fd 3).
WorkerPool shellWorker(const std::string& printfFormat) {
    return WorkerPool({"/bin/sh", "-c", "while read -r line <&3; do printf '" + printfFormat + "' >&3; done"}, {});
}

}  // namespace

TEST_CASE("worker replies: the bytes a line announces follow it, and the next reply starts after them", "[batch]") {
    // The attachment holds a newline and a brace, so reading it as the next line would go wrong.
    WorkerPool pool = shellWorker("{\"entry\":{\"n\":1},\"attachment_bytes\":6}\\nab\\n{cd");
    for (int map = 0; map < 2; ++map) {  // the same worker, its stream read on from where the first reply ended
        const WorkerReply r = pool.run("maps/a.bsp", 10000);
        REQUIRE(r.reply.is_object());
        CHECK(r.reply["entry"]["n"] == 1);
        CHECK(std::string(r.attachment.begin(), r.attachment.end()) == "ab\n{cd");
    }
    // A line without an attachment has none.
    WorkerPool plain = shellWorker("{\"entry\":{}}\\n");
    const WorkerReply r = plain.run("maps/a.bsp", 10000);
    REQUIRE(r.reply.is_object());
    CHECK(r.attachment.empty());
}

TEST_CASE("worker replies: a line promising more bytes than come, or too many, is no reply", "[batch]") {
    // Three bytes of the five, then the worker exits: no reply (its exit status says why).
    WorkerPool shortOne({"/bin/sh", "-c", "read -r line <&3; printf '{\"entry\":{},\"attachment_bytes\":5}\\nabc' >&3"}, {});
    const WorkerReply cut = shortOne.run("maps/a.bsp", 10000);
    CHECK(cut.reply.is_null());
    CHECK(cut.attachment.empty());
    // More than kMaxAttachmentBytes, or not a count: refused before anything is read, the worker killed.
    for (const std::string& n : {std::to_string(kMaxAttachmentBytes + 1), std::string("-1"), std::string("\"5\"")}) {
        INFO(n);
        WorkerPool liar = shellWorker("{\"entry\":{},\"attachment_bytes\":" + n + "}\\n");
        const WorkerReply r = liar.run("maps/a.bsp", 10000);
        CHECK(r.reply.is_null());
        CHECK(r.attachment.empty());
    }
}
