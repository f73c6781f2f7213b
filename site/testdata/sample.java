// A small file for the style specimen page (site/content/chapters/00-sample.adoc) to include
// by tag, so the site build proves that tagged includes from {reporoot} work.
class Sample {
    public static void main(String[] args) throws Exception {
        // tag::demo[]
        int port = Integer.parseInt(args.length > 0 ? args[0] : "8080");
        try (var server = new java.net.ServerSocket(port, 128)) { // <1>
            System.out.println("listening on " + server.getLocalPort()); // <2>
        }
        // end::demo[]
    }
}
