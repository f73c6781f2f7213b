/** A request the server must refuse: carries the status code to answer with, then close. */
final class HttpError extends Exception {
    final int status;

    HttpError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** The error response: plain text, and the connection closes after it. */
    Response response() {
        return Response.text(status, getMessage() + "\n").closing();
    }
}
